import { RateLimiter, clientAddressKey } from "../../http/index.js";
import { ClientApiError } from "../errors.js";

/**
 * Sign-in channels one client address may open per hour. A channel lives an hour, so this bounds the
 * channels one address keeps open; an app's backend opens one per sign-in, so the default allows a
 * busy app and stops one client from filling the table.
 */
export const DEFAULT_CHANNELS_PER_ADDRESS_PER_HOUR = 100;

/** POST /v1/channel's bound: spends one of the caller's channels, or refuses with 429 and spends nothing. */
export function channelLimiter(perAddressPerHour: number, now: () => number): (ip: string) => void {
  const limiter = new RateLimiter(perAddressPerHour, now);
  return (ip) => {
    const key = clientAddressKey(ip);
    const wait = limiter.waitSeconds(key);
    if (wait > 0)
      throw new ClientApiError(
        "rate_limited",
        `too many sign-in channels opened from this address; try again in ${wait} s`,
        wait,
      );
    limiter.take(key);
  };
}
