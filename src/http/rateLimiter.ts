const HOUR_MS = 60 * 60 * 1000;
const SWEEP_EVERY = 1024;

/**
 * `perHour` requests per key in any hour, at once or spread out: a generic cell rate algorithm, which
 * keeps one time per key (when its allowance is whole again). Keys whose allowance is whole are
 * forgotten, so memory follows the keys active in the last hour.
 */
export class RateLimiter {
  private readonly full = new Map<string, number>();
  private readonly interval: number;
  private calls = 0;

  constructor(
    perHour: number,
    private readonly now: () => number,
  ) {
    if (!(perHour > 0 && Number.isFinite(perHour))) {
      throw new Error(`a rate limit must be a positive number of requests per hour, not ${perHour}`);
    }
    this.interval = HOUR_MS / perHour;
  }

  /** Seconds until `key` may make a request; 0 when it may now. */
  waitSeconds(key: string): number {
    const now = this.now();
    const wait = Math.max(this.full.get(key) ?? now, now) + this.interval - HOUR_MS - now;
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  /** Spends one request of `key`. */
  take(key: string): void {
    const now = this.now();
    this.full.set(key, Math.max(this.full.get(key) ?? now, now) + this.interval);
    if (++this.calls % SWEEP_EVERY === 0) {
      for (const [other, full] of this.full) if (full <= now) this.full.delete(other);
    }
  }
}
