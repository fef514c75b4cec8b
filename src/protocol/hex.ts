/**
 * 0x-hex for bytes that leave or enter castnet outside the hub's JSON (addresses, keys, signatures in
 * error messages, registry rows, devchain hashes). The hub's JSON has its own rules in json/bytes.ts.
 */
import type { Hex } from "viem";

/** Lowercase 0x-hex of `bytes`, without copying them. */
export function toHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}

/** The bytes of a 0x-hex string the caller has already validated. */
export function fromHex(value: Hex): Uint8Array {
  return new Uint8Array(Buffer.from(value.slice(2), "hex"));
}

/** Whether `value` is 0x-hex: "0x" and any number of hex digits, of either case. */
export function isHex(value: unknown): value is Hex {
  return typeof value === "string" && /^0x[0-9a-fA-F]*$/.test(value);
}
