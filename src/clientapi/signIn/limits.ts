import { RateLimiter, clientAddressKey } from "../../http/index.js";
import { ClientApiError } from "../errors.js";

/**
 * Sign-in channels one client address may open per hour. A channel lives an hour, so this bounds the
 * channels one address keeps open; an app's backend opens one per sign-in, so the default allows a
 * busy app and stops one client from filling the table.
 */
export const DEFAULT_CHANNELS_PER_ADDRESS_PER_HOUR = 100;

/**
 * Quick Auth nonces one client address may ask for per hour. Anyone may ask, before any signature,
 * and each is a row for five minutes; a mini app's users each ask from their own browser, so the
 * bound is on what one client can make the server keep, not on a popular app.
 */
export const DEFAULT_NONCES_PER_ADDRESS_PER_HOUR = 600;

/**
 * A bound on what one client address may make the client API keep before any signature (sign-in
 * channels, Quick Auth nonces): `admit(ip)` spends one of the address's allowance, or refuses with
 * 429 (the sentence names `what`) and spends nothing.
 */
export function addressLimiter(
  perAddressPerHour: number,
  now: () => number,
  what: string,
): (ip: string) => void {
  const limiter = new RateLimiter(perAddressPerHour, now);
  return (ip) => {
    const key = clientAddressKey(ip);
    const wait = limiter.waitSeconds(key);
    if (wait > 0)
      throw new ClientApiError(
        "rate_limited",
        `too many ${what} from this address; try again in ${wait} s`,
        wait,
      );
    limiter.take(key);
  };
}
