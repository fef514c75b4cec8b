/**
 * Query parameters as the reference hub reads them (docs/reference/hub-http-api.md §3–§4): integers checked
 * by the route schemas, hashes and keys as hex with an optional 0x, enums as a number or a full enum name,
 * and the paging trio pageSize / pageToken / reverse (with the successor node's snake_case spellings accepted
 * too). Anything malformed is a 400 in the hub's error shape.
 */
import { HubError } from "../../../protocol/errors.js";
import { base58ToBytes } from "../../../protocol/base58.js";
import { enumValue } from "../../../protocol/json/enums.js";
import { pageSizeOf, type KeyPageRequest } from "../../data/paging.js";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export const integer = { type: "integer", minimum: 0, maximum: MAX_SAFE } as const;
export const text = { type: "string", maxLength: 1024 } as const;

export const pagingProperties = {
  pageSize: integer,
  page_size: integer,
  pageToken: text,
  page_token: text,
  reverse: text,
} as const;

/** What pageRequest reads: the paging parameters of a paged route's query, as its schema types them. */
export interface PagingQuery {
  pageSize?: number;
  page_size?: number;
  pageToken?: string;
  page_token?: string;
  reverse?: string;
}

function invalid(message: string): HubError {
  return new HubError("bad_request.invalid_param", message);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Page tokens are standard base64 with padding. A `+` sent without URL encoding arrives as a
 * space, so spaces are read back as `+`; anything that is not base64 is refused.
 */
export function pageRequest(query: PagingQuery): KeyPageRequest {
  const size = query.page_size ?? query.pageSize;
  const token = (query.page_token ?? query.pageToken ?? "").replaceAll(" ", "+");
  if (token !== "" && (!BASE64.test(token) || token.length % 4 !== 0)) {
    throw invalid("pageToken is not a page token this hub gave out");
  }
  const reverse = query.reverse;
  return {
    pageSize: pageSizeOf(size),
    // The reference takes any value as true, even "false"; castnet reads "false" and "0" as false.
    reverse: reverse !== undefined && reverse !== "" && reverse !== "false" && reverse !== "0",
    after: token === "" ? undefined : new Uint8Array(Buffer.from(token, "base64")),
  };
}

/** A page key must have the length of the list's keys (one of them, for a list of several kinds); a token from elsewhere is a 400. */
export function checkTokenLength(page: KeyPageRequest, length: number | readonly number[]): KeyPageRequest {
  const lengths = typeof length === "number" ? [length] : length;
  if (page.after !== undefined && !lengths.includes(page.after.length)) {
    throw invalid("pageToken is not a page token this hub gave out");
  }
  return page;
}

const HEX = /^(0x)?([0-9a-fA-F]{2})*$/;

/** Bytes as hex, `0x` optional, of any length. */
export function hexBytesParam(value: string, name: string): Uint8Array {
  if (!HEX.test(value)) throw invalid(`${name} must be hex`);
  return new Uint8Array(Buffer.from(value.startsWith("0x") ? value.slice(2) : value, "hex"));
}

export function hexParam(value: string, name: string, length: number): Uint8Array {
  const bytes = hexBytesParam(value, name);
  if (bytes.length !== length) throw invalid(`${name} must be ${length} bytes of hex`);
  return bytes;
}

const HASH_PREFIX = /^(0x)?[0-9a-fA-F]{8,40}$/;
const HASH_DIGITS = 40;

/**
 * A message hash, or its first 8 hex digits or more, as the range of the 20-byte hashes that start
 * with them (both ends inclusive).
 */
export function hashPrefixParam(value: string, name: string): { low: Uint8Array; high: Uint8Array } {
  if (!HASH_PREFIX.test(value))
    throw invalid(`${name} must be a message hash, or its first 8 hex digits or more`);
  const digits = value.startsWith("0x") ? value.slice(2) : value;
  const bytes = (padding: string) => new Uint8Array(Buffer.from(digits.padEnd(HASH_DIGITS, padding), "hex"));
  return { low: bytes("0"), high: bytes("f") };
}

/** Ethereum addresses as 0x hex (20 bytes); Solana addresses as base58 (32 bytes). */
export function addressParam(value: string, name: string): Uint8Array {
  if (value.startsWith("0x")) return hexParam(value, name, 20);
  const bytes = base58ToBytes(value);
  if (bytes === undefined || bytes.length !== 32) {
    throw invalid(`${name} must be a 0x-hex Ethereum address or a base58 Solana address`);
  }
  return bytes;
}

/**
 * An enum given by number or by a name from any of `tables` (the first holds the full names and says
 * which values exist); `allowNone` admits value 0.
 */
export function enumParam(
  value: string,
  tables: readonly (readonly (string | undefined)[])[],
  name: string,
  allowNone = false,
): number {
  const parsed = enumValue(tables, value);
  if (parsed === undefined || tables[0]![parsed] === undefined || (parsed === 0 && !allowNone)) {
    const choices = tables.flatMap((names) =>
      names.filter((n, i) => n !== undefined && (allowNone || i > 0)),
    );
    throw invalid(`${name} must be one of ${choices.join(", ")} or its number`);
  }
  return parsed;
}
