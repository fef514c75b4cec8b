/**
 * The parsers of `castnet start`'s option values: each takes the option's name for its message and
 * throws a UsageError (exit status 2) with one sentence naming the option and the value it got.
 */
import { readFileSync } from "node:fs";
import { UsageError } from "../usageError.js";

export function port(name: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535)
    throw new UsageError(`--${name} must be a port number (0-65535), got "${value}"`);
  return n;
}

/** The first of `count` consecutive ports, each of them above 0. */
export function portBase(name: string, value: string, count: number): number {
  const n = Number(value);
  const highest = 65536 - count;
  if (!/^\d+$/.test(value) || n < 1 || n > highest)
    throw new UsageError(`--${name} must be a port number from 1 to ${highest}, got "${value}"`);
  return n;
}

/** The most ether an amount may name: far beyond any use, and far inside a uint256 of wei. */
const MOST_ETHER = 1_000_000_000n;

/**
 * An amount of ether written in decimal (`100`, `0.5`), as wei; `what` names it in the refusal
 * (`--dev-balance`, or an argument of the CLI's).
 */
export function ether(what: string, value: string): bigint {
  const match = /^(\d{1,10})(?:\.(\d{1,18}))?$/.exec(value);
  const wei = match ? BigInt(match[1]!) * 10n ** 18n + BigInt((match[2] ?? "").padEnd(18, "0")) : undefined;
  if (wei === undefined || wei > MOST_ETHER * 10n ** 18n)
    throw new UsageError(
      `${what} must be an amount of ether from 0 to ${MOST_ETHER} with at most 18 decimals (100, 0.5), got "${value}"`,
    );
  return wei;
}

export function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

export function list(value: string | undefined): string[] | undefined {
  return value
    ?.split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

export function registryAdmins(value: string | undefined): Record<number, `0x${string}`> {
  const admins: Record<number, `0x${string}`> = {};
  for (const entry of list(value) ?? []) {
    const match = /^(\d{1,15})=(0x[0-9a-fA-F]{40})$/.exec(entry);
    if (!match || Number(match[1]) === 0)
      throw new UsageError(`--registry-admin takes fid=0xaddress pairs, got "${entry}"`);
    admins[Number(match[1])] = match[2] as `0x${string}`;
  }
  return admins;
}

export function positive(name: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > max)
    throw new UsageError(`--${name} must be a number above 0 and at most ${max}, got "${value}"`);
  return n;
}

export function count(name: string, value: string | undefined): number | undefined {
  const n = positive(name, value, 1_000_000);
  if (n !== undefined && !Number.isInteger(n))
    throw new UsageError(`--${name} must be a whole number, got "${value}"`);
  return n;
}

export function milliseconds(name: string, value: string | undefined): number | undefined {
  const seconds = positive(name, value, 86_400);
  return seconds === undefined ? undefined : Math.round(seconds * 1000);
}

export function origins(value: string | undefined): string[] | undefined {
  const given = list(value);
  for (const origin of given ?? []) {
    if (!/^https?:\/\/[^/?#]+$/i.test(origin) || !URL.canParse(origin))
      throw new UsageError(`--trusted-origins takes origins like https://admin.example, got "${origin}"`);
  }
  return given;
}

export function baseUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    return url.toString().replace(/\/$/, "");
  } catch {
    throw new UsageError(`--${name} must be an http(s) URL, got "${value}"`);
  }
}

/**
 * The secret in `path` (the admin token, the RPC credentials), without surrounding whitespace (files
 * usually end with a newline); `option` names the flag in refusals. A secret on the command line is
 * in every local user's `ps`; a file is not.
 */
export function readSecretFile(option: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    throw new UsageError(`--${option}: cannot read ${path} (${code})`);
  }
  const secret = text.trim();
  if (secret === "") throw new UsageError(`--${option}: ${path} is empty`);
  return secret;
}
