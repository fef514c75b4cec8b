import { RegistryError } from "./errors.js";

const HOUR_MS = 60 * 60 * 1000;
const SWEEP_EVERY = 1024;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key: `perHour` requests at once, refilled evenly over the hour. Buckets that
 * have refilled completely are forgotten, so memory follows the keys active in the last hour.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;
  private calls = 0;

  constructor(
    private readonly perHour: number,
    private readonly now: () => number,
  ) {
    this.refillPerMs = perHour / HOUR_MS;
  }

  private tokens(key: string, at: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.perHour;
    return Math.min(this.perHour, bucket.tokens + (at - bucket.at) * this.refillPerMs);
  }

  /** Seconds until `key` may make a request; 0 when it may now. */
  waitSeconds(key: string): number {
    const missing = 1 - this.tokens(key, this.now());
    return missing <= 0 ? 0 : Math.max(1, Math.ceil(missing / this.refillPerMs / 1000));
  }

  /** Spends one request of `key`. */
  take(key: string): void {
    const at = this.now();
    this.buckets.set(key, { tokens: this.tokens(key, at) - 1, at });
    if (++this.calls % SWEEP_EVERY === 0) this.sweep(at);
  }

  private sweep(at: number): void {
    for (const key of this.buckets.keys()) {
      if (this.tokens(key, at) >= this.perHour) this.buckets.delete(key);
    }
  }
}

/** The anti-squatting limits of POST /transfers: per client IP and per requesting fid. */
export interface TransferLimits {
  perFidPerHour: number;
  perIpPerHour: number;
}

/** Generous for a person (a name change takes a few requests, and 28 days pass between them). */
export const DEFAULT_TRANSFER_LIMITS: TransferLimits = { perFidPerHour: 30, perIpPerHour: 600 };

export class TransferRateLimits {
  private readonly byIp: RateLimiter;
  private readonly byFid: RateLimiter;

  constructor(limits: TransferLimits, now: () => number) {
    this.byIp = new RateLimiter(limits.perIpPerHour, now);
    this.byFid = new RateLimiter(limits.perFidPerHour, now);
  }

  /** Spends one request of the IP and of the fid, or throws 429 (with Retry-After) and spends nothing. */
  admit(ip: string, fid: number): void {
    const fidKey = String(fid);
    const ipWait = this.byIp.waitSeconds(ip);
    if (ipWait > 0)
      throw limited(`too many name requests from this address; try again in ${ipWait} s`, ipWait);
    const fidWait = this.byFid.waitSeconds(fidKey);
    if (fidWait > 0)
      throw limited(`too many name requests for fid ${fid}; try again in ${fidWait} s`, fidWait);
    this.byIp.take(ip);
    this.byFid.take(fidKey);
  }
}

function limited(message: string, seconds: number): RegistryError {
  return new RegistryError(429, message, seconds);
}
