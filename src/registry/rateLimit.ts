import { clientAddressKey } from "../http/clientAddress.js";
import { RegistryError } from "./errors.js";

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

/** The anti-squatting limits of POST /transfers: per client address and per requesting fid. */
export interface TransferLimits {
  perFidPerHour: number;
  perIpPerHour: number;
}

/** Generous for a person (a name change takes a few requests, and 28 days pass between them). */
export const DEFAULT_TRANSFER_LIMITS: TransferLimits = { perFidPerHour: 30, perIpPerHour: 600 };

/** The CCIP-read gateway's limit: every name it looks up costs a fresh server signature. */
export interface CcipLimits {
  perClientPerHour: number;
}

/** Generous for a resolver, which looks a name up on every resolution it is asked for. */
export const DEFAULT_CCIP_LIMITS: CcipLimits = { perClientPerHour: 3600 };

export class TransferRateLimits {
  private readonly byIp: RateLimiter;
  private readonly byFid: RateLimiter;

  constructor(limits: TransferLimits, now: () => number) {
    this.byIp = new RateLimiter(limits.perIpPerHour, now);
    this.byFid = new RateLimiter(limits.perFidPerHour, now);
  }

  /**
   * Spends one request of the client's address and checks the fid's allowance, or throws 429 (with
   * Retry-After) and spends nothing. The fid is whatever the body names, so anyone may name any fid:
   * its request is spent only by the function returned, which the caller runs once the request's
   * signature has verified, so that unsigned junk naming a victim cannot lock the victim out.
   */
  admit(ip: string, fid: number): () => void {
    const ipKey = clientAddressKey(ip);
    const fidKey = String(fid);
    const ipWait = this.byIp.waitSeconds(ipKey);
    if (ipWait > 0)
      throw limited(`too many name requests from this address; try again in ${ipWait} s`, ipWait);
    const fidWait = this.byFid.waitSeconds(fidKey);
    if (fidWait > 0)
      throw limited(`too many name requests for fid ${fid}; try again in ${fidWait} s`, fidWait);
    this.byIp.take(ipKey);
    return () => this.byFid.take(fidKey);
  }
}

function limited(message: string, seconds: number): RegistryError {
  return new RegistryError(429, message, seconds);
}
