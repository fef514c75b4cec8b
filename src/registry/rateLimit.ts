import { SignedWriteLimiter } from "../http/index.js";
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

/** POST /transfers' limiter (SignedWriteLimiter: the fid is spent once the transfer's signature verifies). */
export function transferLimiter(limits: TransferLimits, now: () => number): SignedWriteLimiter {
  return new SignedWriteLimiter(
    { perClientPerHour: limits.perIpPerHour, perFidPerHour: limits.perFidPerHour },
    now,
    (message, seconds) => new RegistryError("rate_limited", message, seconds),
    "name requests",
  );
}
