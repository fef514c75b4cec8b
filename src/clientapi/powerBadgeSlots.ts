const DAY = 86_400;
const WEEK = 7 * DAY;
/** Tuesday 1970-01-06 12:00:00 UTC, the first slot after the Unix epoch (a Thursday). */
const FIRST_SLOT = 5 * DAY + 12 * 3600;

/** The most recent power-badge slot (Tuesday 12:00:00 UTC) at or before `unixSeconds`. */
export function lastSlot(unixSeconds: number): number {
  return FIRST_SLOT + Math.floor((unixSeconds - FIRST_SLOT) / WEEK) * WEEK;
}

export function nextSlot(unixSeconds: number): number {
  return lastSlot(unixSeconds) + WEEK;
}
