const HOUR_MS = 60 * 60 * 1000;
const SWEEP_EVERY = 1024;

/**
 * `perHour` requests per key in any hour, at most `burst` of them at once (the whole hour's by
 * default): a generic cell rate algorithm, which keeps one time per key (when its allowance is whole
 * again). Keys whose allowance is whole are forgotten, so memory follows the keys active lately.
 */
export class RateLimiter {
  private readonly full = new Map<string, number>();
  private readonly interval: number;
  /** How far ahead of now a key's allowance may be spent: all of the burst but the request asking. */
  private readonly tolerance: number;
  private calls = 0;
  /** The latest time read: the limiter's clock never runs back (see time()). */
  private latest = -Infinity;

  constructor(
    perHour: number,
    private readonly now: () => number,
    burst = perHour,
  ) {
    if (!(perHour > 0 && Number.isFinite(perHour))) {
      throw new Error(`a rate limit must be a positive number of requests per hour, not ${perHour}`);
    }
    if (!(burst > 0 && Number.isFinite(burst))) {
      throw new Error(`a burst must be a positive number of requests, not ${burst}`);
    }
    this.interval = HOUR_MS / perHour;
    this.tolerance = (burst - 1) * this.interval;
  }

  /** Seconds until `key` may make a request; 0 when it may now. */
  waitSeconds(key: string): number {
    const now = this.time();
    const wait = Math.max(this.full.get(key) ?? now, now) - this.tolerance - now;
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  /** Spends one request of `key`. */
  take(key: string): void {
    const now = this.time();
    this.full.set(key, Math.max(this.full.get(key) ?? now, now) + this.interval);
    if (++this.calls % SWEEP_EVERY === 0) {
      for (const [other, full] of this.full) if (full <= now) this.full.delete(other);
    }
  }

  /**
   * The clock, held still while it reads earlier than it did (a clock stepped back): otherwise every
   * key would owe the step on top of what it spent, and be refused for that long.
   */
  private time(): number {
    this.latest = Math.max(this.latest, this.now());
    return this.latest;
  }
}
