import { RateLimiter } from "../http/index.js";
import { ClientApiError } from "./errors.js";

/**
 * How many signed key requests may be created per hour. An app's backend creates one per sign-in, so
 * the defaults allow a busy app; they stop one signature or one client from filling the table.
 */
export interface KeyRequestLimits {
  perFidPerHour: number;
  perAddressPerHour: number;
}

export const DEFAULT_KEY_REQUEST_LIMITS: KeyRequestLimits = { perFidPerHour: 600, perAddressPerHour: 600 };

/** Per requesting fid and per client address (clientAddressKey), kept in memory per process. */
export class KeyRequestLimiter {
  private readonly byAddress: RateLimiter;
  private readonly byFid: RateLimiter;

  constructor(limits: KeyRequestLimits, now: () => number) {
    this.byAddress = new RateLimiter(limits.perAddressPerHour, now);
    this.byFid = new RateLimiter(limits.perFidPerHour, now);
  }

  /** Spends one creation of the address and of the fid, or throws 429 and spends nothing. */
  admit(address: string, fid: number): void {
    const fidKey = String(fid);
    const addressWait = this.byAddress.waitSeconds(address);
    if (addressWait > 0)
      throw limited(
        `too many signed key requests from this address; try again in ${addressWait} s`,
        addressWait,
      );
    const fidWait = this.byFid.waitSeconds(fidKey);
    if (fidWait > 0)
      throw limited(`too many signed key requests for fid ${fid}; try again in ${fidWait} s`, fidWait);
    this.byAddress.take(address);
    this.byFid.take(fidKey);
  }
}

function limited(message: string, seconds: number): ClientApiError {
  return new ClientApiError("rate_limited", message, seconds);
}
