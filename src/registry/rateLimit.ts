import { RateLimiter } from "../http/index.js";
import { RegistryError } from "./errors.js";

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
