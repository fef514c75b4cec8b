import { clientAddressKey, RateLimiter } from "../http/index.js";
import { RegistryError } from "./errors.js";

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
  return new RegistryError("rate_limited", message, seconds);
}
