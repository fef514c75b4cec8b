import { blake3 } from "@noble/hashes/blake3.js";

/**
 * Message hashes are BLAKE3 with a 20-byte output (identical to the first 20 bytes of the 32-byte
 * digest). Nearly every MessageData fits in one 1 KiB chunk, where a straight-line compression of
 * the chunk's blocks is several times faster than a general streaming hasher (whose setup dominates
 * at this size); longer inputs use @noble/hashes. The same compression, keyed, MACs page cursors.
 */
const IV = new Uint32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
const CHUNK_START = 1;
const CHUNK_END = 2;
const ROOT = 8;
const KEYED_HASH = 16;
const CHUNK_LEN = 1024;

// Message word order for each of the 7 rounds (the permutation applied round after round).
const SCHEDULE: Uint8Array[] = (() => {
  const permutation = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
  const rounds: Uint8Array[] = [];
  let order = Array.from({ length: 16 }, (_, i) => i);
  for (let r = 0; r < 7; r++) {
    rounds.push(Uint8Array.from(order));
    order = permutation.map((p) => order[p]!);
  }
  return rounds;
})();

const words = new Uint32Array(16);
const cv = new Uint32Array(8);
const keyWords = new Uint32Array(8);

/**
 * Compresses `words` into `cv` (chunk counter 0: a single-chunk input). The state lives in locals
 * and the G function is written out, which is what lets the JIT keep it all in registers.
 */
function compress(blockLength: number, flags: number): void {
  let v0 = cv[0]!,
    v1 = cv[1]!,
    v2 = cv[2]!,
    v3 = cv[3]!,
    v4 = cv[4]!,
    v5 = cv[5]!,
    v6 = cv[6]!,
    v7 = cv[7]!;
  let v8 = IV[0]!,
    v9 = IV[1]!,
    v10 = IV[2]!,
    v11 = IV[3]!;
  let v12 = 0,
    v13 = 0,
    v14 = blockLength,
    v15 = flags;
  const m = words;
  for (let r = 0; r < 7; r++) {
    const o = SCHEDULE[r]!;
    v0 = (v0 + v4 + m[o[0]!]!) | 0;
    v12 ^= v0;
    v12 = (v12 >>> 16) | (v12 << 16);
    v8 = (v8 + v12) | 0;
    v4 ^= v8;
    v4 = (v4 >>> 12) | (v4 << 20);
    v0 = (v0 + v4 + m[o[1]!]!) | 0;
    v12 ^= v0;
    v12 = (v12 >>> 8) | (v12 << 24);
    v8 = (v8 + v12) | 0;
    v4 ^= v8;
    v4 = (v4 >>> 7) | (v4 << 25);
    v1 = (v1 + v5 + m[o[2]!]!) | 0;
    v13 ^= v1;
    v13 = (v13 >>> 16) | (v13 << 16);
    v9 = (v9 + v13) | 0;
    v5 ^= v9;
    v5 = (v5 >>> 12) | (v5 << 20);
    v1 = (v1 + v5 + m[o[3]!]!) | 0;
    v13 ^= v1;
    v13 = (v13 >>> 8) | (v13 << 24);
    v9 = (v9 + v13) | 0;
    v5 ^= v9;
    v5 = (v5 >>> 7) | (v5 << 25);
    v2 = (v2 + v6 + m[o[4]!]!) | 0;
    v14 ^= v2;
    v14 = (v14 >>> 16) | (v14 << 16);
    v10 = (v10 + v14) | 0;
    v6 ^= v10;
    v6 = (v6 >>> 12) | (v6 << 20);
    v2 = (v2 + v6 + m[o[5]!]!) | 0;
    v14 ^= v2;
    v14 = (v14 >>> 8) | (v14 << 24);
    v10 = (v10 + v14) | 0;
    v6 ^= v10;
    v6 = (v6 >>> 7) | (v6 << 25);
    v3 = (v3 + v7 + m[o[6]!]!) | 0;
    v15 ^= v3;
    v15 = (v15 >>> 16) | (v15 << 16);
    v11 = (v11 + v15) | 0;
    v7 ^= v11;
    v7 = (v7 >>> 12) | (v7 << 20);
    v3 = (v3 + v7 + m[o[7]!]!) | 0;
    v15 ^= v3;
    v15 = (v15 >>> 8) | (v15 << 24);
    v11 = (v11 + v15) | 0;
    v7 ^= v11;
    v7 = (v7 >>> 7) | (v7 << 25);
    v0 = (v0 + v5 + m[o[8]!]!) | 0;
    v15 ^= v0;
    v15 = (v15 >>> 16) | (v15 << 16);
    v10 = (v10 + v15) | 0;
    v5 ^= v10;
    v5 = (v5 >>> 12) | (v5 << 20);
    v0 = (v0 + v5 + m[o[9]!]!) | 0;
    v15 ^= v0;
    v15 = (v15 >>> 8) | (v15 << 24);
    v10 = (v10 + v15) | 0;
    v5 ^= v10;
    v5 = (v5 >>> 7) | (v5 << 25);
    v1 = (v1 + v6 + m[o[10]!]!) | 0;
    v12 ^= v1;
    v12 = (v12 >>> 16) | (v12 << 16);
    v11 = (v11 + v12) | 0;
    v6 ^= v11;
    v6 = (v6 >>> 12) | (v6 << 20);
    v1 = (v1 + v6 + m[o[11]!]!) | 0;
    v12 ^= v1;
    v12 = (v12 >>> 8) | (v12 << 24);
    v11 = (v11 + v12) | 0;
    v6 ^= v11;
    v6 = (v6 >>> 7) | (v6 << 25);
    v2 = (v2 + v7 + m[o[12]!]!) | 0;
    v13 ^= v2;
    v13 = (v13 >>> 16) | (v13 << 16);
    v8 = (v8 + v13) | 0;
    v7 ^= v8;
    v7 = (v7 >>> 12) | (v7 << 20);
    v2 = (v2 + v7 + m[o[13]!]!) | 0;
    v13 ^= v2;
    v13 = (v13 >>> 8) | (v13 << 24);
    v8 = (v8 + v13) | 0;
    v7 ^= v8;
    v7 = (v7 >>> 7) | (v7 << 25);
    v3 = (v3 + v4 + m[o[14]!]!) | 0;
    v14 ^= v3;
    v14 = (v14 >>> 16) | (v14 << 16);
    v9 = (v9 + v14) | 0;
    v4 ^= v9;
    v4 = (v4 >>> 12) | (v4 << 20);
    v3 = (v3 + v4 + m[o[15]!]!) | 0;
    v14 ^= v3;
    v14 = (v14 >>> 8) | (v14 << 24);
    v9 = (v9 + v14) | 0;
    v4 ^= v9;
    v4 = (v4 >>> 7) | (v4 << 25);
  }
  cv[0] = v0 ^ v8;
  cv[1] = v1 ^ v9;
  cv[2] = v2 ^ v10;
  cv[3] = v3 ^ v11;
  cv[4] = v4 ^ v12;
  cv[5] = v5 ^ v13;
  cv[6] = v6 ^ v14;
  cv[7] = v7 ^ v15;
}

function loadBlock(bytes: Uint8Array, offset: number, length: number): void {
  words.fill(0);
  for (let i = 0; i < length; i++) words[i >> 2]! |= bytes[offset + i]! << ((i & 3) * 8);
}

/**
 * The first `length` (≤ 32) bytes of the hash of a one-chunk input, from the chaining value `start`
 * (the IV, or a key's words) with the mode's flag on every block.
 */
function singleChunk(bytes: Uint8Array, start: Uint32Array, mode: number, length: number): Uint8Array {
  cv.set(start);
  const n = bytes.length;
  let offset = 0;
  let flags = CHUNK_START | mode;
  while (n - offset > 64) {
    loadBlock(bytes, offset, 64);
    compress(64, flags);
    flags = mode;
    offset += 64;
  }
  loadBlock(bytes, offset, n - offset);
  compress(n - offset, flags | CHUNK_END | ROOT);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = cv[i >> 2]! >>> ((i & 3) * 8);
  return out;
}

export function blake3_20(bytes: Uint8Array): Uint8Array {
  return bytes.length <= CHUNK_LEN ? singleChunk(bytes, IV, 0, 20) : blake3(bytes, { dkLen: 20 });
}

/**
 * BLAKE3 in its keyed mode, a MAC, with a 32-byte key: the first `length` (≤ 32) bytes. A page
 * cursor is MACed twice a request (decoded, then the next encoded), where node:crypto's HMAC costs
 * several µs in setting up its context alone.
 */
export function blake3Keyed(key: Uint8Array, bytes: Uint8Array, length: number): Uint8Array {
  if (key.length !== 32) throw new RangeError("a BLAKE3 key is 32 bytes");
  if (bytes.length > CHUNK_LEN) return blake3(bytes, { key, dkLen: length });
  const view = new DataView(key.buffer, key.byteOffset, 32);
  for (let i = 0; i < 8; i++) keyWords[i] = view.getUint32(i * 4, true);
  return singleChunk(bytes, keyWords, KEYED_HASH, length);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
