/**
 * Byte keys the stores sort and seek on. Every key is plain bytes so that SQLite (memcmp on blobs)
 * and PostgreSQL (bytea) order them identically.
 */
import type { CastId } from "../../protocol/generated/message.js";

/** StoreType numbers of the reference (request_response.proto); also the `store` column. */
export const StoreType = {
  CASTS: 1,
  LINKS: 2,
  REACTIONS: 3,
  USER_DATA: 4,
  VERIFICATIONS: 5,
  USERNAME_PROOFS: 6,
  STORAGE_LENDS: 7,
} as const;
export type StoreType = (typeof StoreType)[keyof typeof StoreType];

export const STORE_TYPES: readonly StoreType[] = Object.values(StoreType);

export const STORE_NAMES = Object.fromEntries(
  Object.entries(StoreType).map(([name, type]) => [type, name]),
) as Record<StoreType, keyof typeof StoreType>;

/** Compares keys byte by byte, shorter first on a common prefix (memcmp order). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value), false);
  return out;
}

const utf8 = new TextEncoder();

// One leading byte per kind of target, so that a URL can never collide with a cast id or a fid.
const CAST_ID = 1;
const URL = 2;
const FID = 3;
const ADDRESS = 4;
const NAME = 5;
const COMPACT_STATE = 6;

export function castIdKey(castId: CastId): Uint8Array {
  return concat([Uint8Array.of(CAST_ID), u64(castId.fid), castId.hash]);
}

export function urlKey(url: string): Uint8Array {
  return concat([Uint8Array.of(URL), utf8.encode(url)]);
}

export function fidKey(fid: number): Uint8Array {
  return concat([Uint8Array.of(FID), u64(fid)]);
}

export function addressKey(address: Uint8Array): Uint8Array {
  return concat([Uint8Array.of(ADDRESS), address]);
}

export function nameKey(name: Uint8Array): Uint8Array {
  return concat([Uint8Array.of(NAME), name]);
}

/** Link types are compared as the reference pads them: to 8 bytes with zeros. */
export function linkTypeKey(type: string): Uint8Array {
  const out = new Uint8Array(8);
  out.set(utf8.encode(type).subarray(0, 8));
  return out;
}

/** Set keys: a small tag or type prefix followed by the target. */
export function setKey(...parts: Uint8Array[]): Uint8Array {
  return concat(parts);
}

export function u8(value: number): Uint8Array {
  return Uint8Array.of(value & 0xff);
}

export function compactStateKey(type: string): Uint8Array {
  return concat([Uint8Array.of(COMPACT_STATE), linkTypeKey(type)]);
}
