import { SignedWriteLimiter } from "../../http/index.js";
import { ClientApiError } from "../errors.js";

/**
 * How many signed key requests may be created per hour. An app's backend creates one per sign-in, so
 * the defaults allow a busy app; they stop one signature or one client from filling the table.
 */
export interface KeyRequestLimits {
  perFidPerHour: number;
  perAddressPerHour: number;
}

export const DEFAULT_KEY_REQUEST_LIMITS: KeyRequestLimits = { perFidPerHour: 600, perAddressPerHour: 600 };

/** POST /v2/signed-key-request's limiter (SignedWriteLimiter: the fid is spent once the request's signature verifies). */
export function keyRequestLimiter(limits: KeyRequestLimits, now: () => number): SignedWriteLimiter {
  return new SignedWriteLimiter(
    { perClientPerHour: limits.perAddressPerHour, perFidPerHour: limits.perFidPerHour },
    now,
    (message, seconds) => new ClientApiError("rate_limited", message, seconds),
    "signed key requests",
  );
}
