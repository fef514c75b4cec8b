import { blake3 } from "@noble/hashes/blake3.js";

/** Message hashes are BLAKE3 with a 20-byte output (identical to the first 20 bytes of the 32-byte digest). */
export function blake3_20(bytes: Uint8Array): Uint8Array {
  return blake3(bytes, { dkLen: 20 });
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
