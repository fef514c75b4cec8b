/**
 * The newest events of the hub's log. The hub reads its log forwards only (GET /v1/events, 100 from
 * an id), and its ids count milliseconds in their upper bits, so the tail is read as a span of time
 * ending at `before` (or at the log's end), widened step by step into the past until it holds the
 * events wanted: a quiet log costs a read per step, a busy one only the span of its last seconds.
 * Each step reads only the stretch before the previous one.
 */
import type { HubEvent } from "./hubJson.js";
import { type Sources, withQuery } from "./sources.js";

/** Hub event ids count milliseconds from 2021-01-01 in their upper bits (docs/hub.md). */
const EVENT_EPOCH_MS = 1_609_459_200_000;
const SEQUENCE_BITS = 4096;

/** How far back each step reaches, in ms before the end; the last reaches the log's start. */
const STEPS_MS = [2_000, 30_000, 300_000, 3_600_000, 21_600_000, 86_400_000, Number.POSITIVE_INFINITY];
/** Pages of 100 events one tail may read: past that, it shows what it found. */
const MAX_PAGES = 60;

/** The first hub event id at or after `unixMs`. */
export function eventIdAt(unixMs: number): number {
  return Math.max(0, Math.floor(unixMs - EVENT_EPOCH_MS) * SEQUENCE_BITS);
}

/** When the event with this id was merged, in Unix ms. */
export const eventTime = (id: number): number => Math.floor(id / SEQUENCE_BITS) + EVENT_EPOCH_MS;

export interface TailQuery {
  /** Events that count; the others are read past. */
  keep: (event: HubEvent) => boolean;
  /** How many kept events are wanted. */
  want: number;
  /** Only events with a smaller id (older); the log's end when undefined. */
  before?: number;
  now: () => number;
}

/** Up to `want` kept events, newest first, and whether the log may hold older ones that were not read. */
export async function logTail(
  sources: Sources,
  { keep, want, before, now }: TailQuery,
): Promise<{ events: HubEvent[]; older: boolean }> {
  const endMs = before === undefined ? now() : eventTime(before);
  const found: HubEvent[] = [];
  let stepEnd = before;
  let pages = 0;
  for (const reach of STEPS_MS) {
    const from = reach === Number.POSITIVE_INFINITY ? 0 : eventIdAt(endMs - reach);
    const stretch: HubEvent[] = [];
    for (let at = from; pages < MAX_PAGES;) {
      pages++;
      const page = await sources.get<{ events: HubEvent[]; nextPageEventId: number }>(
        "hub",
        withQuery("/v1/events", { from_event_id: at }),
      );
      const events = page?.events ?? [];
      const inside = events.filter((event) => stepEnd === undefined || event.id < stepEnd);
      stretch.push(...inside.filter(keep));
      if (events.length === 0 || inside.length < events.length) break;
      at = page!.nextPageEventId;
    }
    found.push(...stretch.reverse());
    if (found.length >= want || from === 0 || pages >= MAX_PAGES)
      return { events: found.slice(0, want), older: from > 0 || found.length > want };
    stepEnd = from;
  }
  return { events: found, older: false };
}
