import { HubError } from "./errors.js";

/** 2021-01-01T00:00:00Z in Unix milliseconds: message timestamps count seconds from here. */
export const PROTOCOL_EPOCH_MS = 1609459200000;

const MAX_PROTOCOL_TIME = 0xffffffff;

/**
 * Unix ms → protocol seconds. Rounds (as the reference client library does) rather than truncating,
 * so a message built here gets the same timestamp as one built by that library at the same instant.
 */
export function toProtocolTime(unixMs: number): number {
  if (!Number.isFinite(unixMs) || unixMs < PROTOCOL_EPOCH_MS) {
    throw new HubError("bad_request.invalid_param", "time must be after the protocol epoch (01/01/2021)");
  }
  const seconds = Math.round((unixMs - PROTOCOL_EPOCH_MS) / 1000);
  if (seconds > MAX_PROTOCOL_TIME) {
    throw new HubError("bad_request.invalid_param", "time too far in future");
  }
  return seconds;
}

export function fromProtocolTime(seconds: number): number {
  return seconds * 1000 + PROTOCOL_EPOCH_MS;
}

export function currentProtocolTime(nowMs: number = Date.now()): number {
  return toProtocolTime(nowMs);
}
