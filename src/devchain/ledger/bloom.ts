/**
 * The logs bloom of a receipt and of a block, as the EVM computes it (the yellow paper's M3:2048):
 * for the address and each topic of every log, three bits of a 2,048-bit filter, each chosen by a
 * pair of bytes of the value's keccak-256. Clients test a block's bloom before asking for its logs.
 */
import { type Hex, hexToBytes, keccak256 } from "viem";

export const BLOOM_BYTES = 256;

export function logsBloom(logs: readonly { address: Hex; topics: readonly Hex[] }[]): Uint8Array {
  const bloom = new Uint8Array(BLOOM_BYTES);
  for (const log of logs)
    for (const value of [log.address, ...log.topics]) {
      const hash = keccak256(hexToBytes(value), "bytes");
      for (let i = 0; i < 6; i += 2) {
        const bit = ((hash[i]! << 8) | hash[i + 1]!) & 2047;
        bloom[BLOOM_BYTES - 1 - (bit >> 3)]! |= 1 << (bit & 7);
      }
    }
  return bloom;
}
