/** The logs bloom (src/devchain/ledger/bloom.ts) against a bloom a mainnet block carries. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hexToBytes } from "viem";
import { BLOOM_BYTES, logsBloom } from "../../src/devchain/ledger/bloom.js";

/**
 * A receipt's bloom from Ethereum mainnet that holds the address below (the example of ox's
 * Bloom.contains): every bit the address sets in a bloom must be set in it.
 */
const MAINNET_BLOOM = hexToBytes(
  `0x${[
    "000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000",
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    "000000020200000000000000000000000000000000000000000000080000000010000000000000000000000000000000",
    "000000000000000000000010000000000000000000000000000000000000000000000000000000000000000000000000",
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    "00000000000000000000000000000000",
  ].join("")}`,
);
const ADDRESS = "0xef2d6d194084c2de36e0dabfce45d046b37d1106";

const bits = (bloom: Uint8Array) =>
  [...bloom].flatMap((byte, i) =>
    [0, 1, 2, 3, 4, 5, 6, 7].filter((bit) => (byte >> bit) & 1).map((bit) => (BLOOM_BYTES - 1 - i) * 8 + bit),
  );

describe("logsBloom", () => {
  it("is 256 zero bytes without logs", () => {
    assert.deepEqual(logsBloom([]), new Uint8Array(BLOOM_BYTES));
  });

  it("sets the three bits of a value that a mainnet bloom holding it has set", () => {
    assert.equal(MAINNET_BLOOM.length, BLOOM_BYTES);
    const own = bits(logsBloom([{ address: ADDRESS, topics: [] }]));
    assert.equal(own.length, 3);
    const mainnet = new Set(bits(MAINNET_BLOOM));
    assert.deepEqual(
      own.filter((bit) => mainnet.has(bit)),
      own,
    );
  });

  it("is the union of the address's and the topics' bits over every log", () => {
    const topic = `0x${"ab".repeat(32)}` as const;
    const one = bits(logsBloom([{ address: ADDRESS, topics: [topic] }]));
    const apart = new Set([
      ...bits(logsBloom([{ address: ADDRESS, topics: [] }])),
      ...bits(logsBloom([{ address: topic, topics: [] }])),
    ]);
    assert.deepEqual(
      one,
      [...apart].sort((a, b) => b - a),
    );
  });
});
