import { clientAddressKey } from "./clientAddress.js";
import { RateLimiter } from "./rateLimiter.js";

/** Requests per hour of a signed write: per client address and per fid the request names. */
export interface SignedWriteLimits {
  perClientPerHour: number;
  perFidPerHour: number;
}

/**
 * The limits of a public write authorised by a signature (a name transfer, a signed key request).
 * The client's address is spent on arrival: its requests cost before anything is checked. The fid is
 * whatever the body names, so anyone may name any fid: it is only checked on arrival and spent by the
 * function `admit` returns, which the caller runs once the signature has verified, so that unsigned
 * junk naming a victim cannot lock the victim out.
 */
export class SignedWriteLimiter {
  private readonly byClient: RateLimiter;
  private readonly byFid: RateLimiter;

  constructor(
    limits: SignedWriteLimits,
    now: () => number,
    /** The part's 429 error, with the sentence and the seconds to wait. */
    private readonly refuse: (message: string, seconds: number) => Error,
    /** What the requests are called in that sentence, e.g. "name requests". */
    private readonly what: string,
  ) {
    this.byClient = new RateLimiter(limits.perClientPerHour, now);
    this.byFid = new RateLimiter(limits.perFidPerHour, now);
  }

  /** Spends one request of the client's address (its socket's `ip`) and returns the fid's charge, or throws and spends nothing. */
  admit(ip: string, fid: number): () => void {
    const clientKey = clientAddressKey(ip);
    const fidKey = String(fid);
    const clientWait = this.byClient.waitSeconds(clientKey);
    if (clientWait > 0)
      throw this.refuse(`too many ${this.what} from this address; try again in ${clientWait} s`, clientWait);
    const fidWait = this.byFid.waitSeconds(fidKey);
    if (fidWait > 0)
      throw this.refuse(`too many ${this.what} for fid ${fid}; try again in ${fidWait} s`, fidWait);
    this.byClient.take(clientKey);
    return () => this.byFid.take(fidKey);
  }
}
