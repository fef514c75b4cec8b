import type { Hex } from "viem";
import { badInput } from "../errors.js";

/** Above this a "Unix seconds" value is really milliseconds (10^11 s is the year 5138). */
const LARGEST_SECONDS = 100_000_000_000;

const KEY_PATTERN = /^0x[0-9a-fA-F]{64}$/;
const SIGNATURE_PATTERN = /^0x(?:[0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/;
const TOKEN_PATTERN = /^0x[0-9a-fA-F]{2,128}$/;

export function checkKey(key: string): void {
  if (!KEY_PATTERN.test(key))
    throw badInput("key must be a 32-byte Ed25519 public key written as 0x and 64 hex digits");
}

export function checkToken(token: string): void {
  if (!TOKEN_PATTERN.test(token)) throw badInput("token must be 0x followed by hex digits");
}

/** Some clients send fids as strings of digits. */
export function parseFid(value: number | string, field: string): number {
  const fid = typeof value === "string" && /^[0-9]{1,16}$/.test(value) ? Number(value) : value;
  if (typeof fid !== "number" || !Number.isSafeInteger(fid) || fid < 1)
    throw badInput(`${field} must be a positive integer fid`);
  return fid;
}

export function parseSignature(value: string, field: string): Hex {
  if (!SIGNATURE_PATTERN.test(value))
    throw badInput(`${field} must be a 65-byte signature written as 0x and 130 hex digits`);
  return value.toLowerCase() as Hex;
}

/** A deadline in Unix seconds that is still ahead of `now`. */
export function futureDeadline(deadline: number, field: string, now: number): number {
  if (!Number.isSafeInteger(deadline) || deadline < 0)
    throw badInput(`${field} must be a non-negative integer of Unix seconds`);
  if (deadline >= LARGEST_SECONDS)
    throw badInput(
      `${field} ${deadline} looks like milliseconds; send Unix seconds (${Math.floor(deadline / 1000)})`,
    );
  if (deadline <= now)
    throw badInput(`${field} ${deadline} has passed (${new Date(deadline * 1000).toISOString()})`);
  return deadline;
}

/** Schemes a browser or wallet runs, or opens as a document of the user's own machine, instead of following. */
const NOT_A_LINK = new Set([
  "javascript:",
  "data:",
  "vbscript:",
  "file:",
  "blob:",
  "about:",
  "filesystem:",
  "view-source:",
]);

/**
 * Whether a redirect URL is one a wallet may send its user to: a web page (http, https) or an app's
 * own scheme (`myapp://done`). Wallet clients open it as they get it, so a `javascript:` or `data:` URL
 * would run in whatever context opens it.
 */
export function isRedirectUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  return !NOT_A_LINK.has(new URL(value).protocol);
}
