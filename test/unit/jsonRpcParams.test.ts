/** The devchain's JSON-RPC value readers and writers (src/devchain/rpc/params.ts): what each takes, refuses and gives. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  encodeData,
  encodeQuantity,
  parseAddress,
  parseBlockSelector,
  parseBoolean,
  parseData,
  parseHash,
  parseObject,
  parseQuantity,
  parseQuantityNumber,
  positionalParams,
  RPC_ERROR_CODES,
  RpcError,
} from "../../src/devchain/rpc/index.js";

/** Expects -32602 with exactly this message. */
function refused(read: () => unknown, message: string) {
  assert.throws(read, (error: unknown) => {
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, RPC_ERROR_CODES.invalidParams);
    assert.equal(error.message, `invalid params: ${message}`);
    return true;
  });
}

const HASH = `0x${"ab".repeat(32)}`;

describe("JSON-RPC parameters", () => {
  it("positional: fills optional parameters with undefined, null included, and counts the rest", () => {
    assert.deepEqual(positionalParams(["a"], ["x", "y"], 1), ["a", undefined]);
    assert.deepEqual(positionalParams(["a", null], ["x", "y"], 1), ["a", undefined]);
    assert.deepEqual(positionalParams([null, "b"], ["x", "y"]), [null, "b"]);
    assert.deepEqual(positionalParams([], []), []);
    refused(() => positionalParams([1], []), "too many parameters: this method takes none, got 1");
    refused(
      () => positionalParams([1, 2, 3], ["x", "y"], 1),
      "too many parameters: this method takes at most 2 (x, y), got 3",
    );
    refused(
      () => positionalParams(["a"], ["x", "y", "z"], 2),
      "missing parameter 1 (y): this method needs 2 (x, y)",
    );
  });

  it("quantity: 0x hex without leading zeros, within its bound", () => {
    assert.equal(parseQuantity("0x0", "n"), 0n);
    assert.equal(parseQuantity("0xFf", "n"), 255n);
    assert.equal(parseQuantity(`0x${"f".repeat(64)}`, "n"), (1n << 256n) - 1n);
    const expected = "a hex quantity like 0x1a (0x0 for zero, no leading zeros)";
    for (const [value, shown] of [
      ["0x", '"0x"'],
      ["0x01", '"0x01"'],
      ["0x00", '"0x00"'],
      ["1a", '"1a"'],
      ["0X1", '"0X1"'],
      ["0xg", '"0xg"'],
      ["-0x1", '"-0x1"'],
      [26, "26"],
      [null, "null"],
      [undefined, "nothing"],
    ] as const)
      refused(() => parseQuantity(value, "n"), `n must be ${expected}, got ${shown}`);
    refused(
      () => parseQuantity(`0x1${"0".repeat(64)}`, "n"),
      `n must be at most 0x${"f".repeat(64)}, got "0x1${"0".repeat(64)}"`,
    );
    assert.equal(parseQuantityNumber("0x1f", "index"), 31);
    refused(
      () => parseQuantityNumber("0x20000000000000", "index"),
      'index must be at most 0x1fffffffffffff, got "0x20000000000000"',
    );
    refused(() => parseQuantityNumber("0x11", "count", 16), 'count must be at most 0x10, got "0x11"');
  });

  it("data: whole bytes, lowercased, of a set length when asked", () => {
    assert.equal(parseData("0x", "d"), "0x");
    assert.equal(parseData("0xABcd", "d"), "0xabcd");
    assert.equal(parseData("0xabcd", "d", 2), "0xabcd");
    refused(() => parseData("0xabc", "d"), 'd must be hex data like 0x12ab (whole bytes), got "0xabc"');
    refused(() => parseData("abcd", "d"), 'd must be hex data like 0x12ab (whole bytes), got "abcd"');
    refused(() => parseData("0xabcd", "d", 3), 'd must be 3 bytes of hex data, got "0xabcd"');
  });

  it("address: 20 bytes in any case, checksummed on the way out; hash: 32 bytes, lowercased", () => {
    const checksummed = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
    for (const spelling of [
      checksummed,
      checksummed.toLowerCase(),
      `0x${checksummed.slice(2).toUpperCase()}`,
    ])
      assert.equal(parseAddress(spelling, "to"), checksummed);
    refused(
      () => parseAddress(`${checksummed}00`, "to"),
      `to must be a 20-byte hex address, got "${checksummed}00"`,
    );
    assert.equal(parseHash(HASH.toUpperCase().replace("0X", "0x"), "hash"), HASH);
    refused(() => parseHash("0xab", "hash"), 'hash must be a 32-byte hex hash, got "0xab"');
    const long = `0x${"ab".repeat(40)}`;
    refused(
      () => parseHash(long, "hash"),
      `hash must be a 32-byte hex hash, got ${JSON.stringify(long).slice(0, 77)}...`,
    );
  });

  it("block: tags, numbers and EIP-1898 objects", () => {
    for (const tag of ["latest", "earliest", "pending", "safe", "finalized"])
      assert.deepEqual(parseBlockSelector(tag, "block"), { kind: "tag", tag });
    assert.deepEqual(parseBlockSelector("0x10", "block"), { kind: "number", number: 16 });
    assert.deepEqual(parseBlockSelector({ blockNumber: "0x10" }, "block"), { kind: "number", number: 16 });
    assert.deepEqual(parseBlockSelector({ blockNumber: "safe" }, "block"), { kind: "tag", tag: "safe" });
    assert.deepEqual(parseBlockSelector({ blockHash: HASH }, "block"), {
      kind: "hash",
      hash: HASH,
      requireCanonical: false,
    });
    assert.deepEqual(parseBlockSelector({ blockHash: HASH, requireCanonical: true }, "block"), {
      kind: "hash",
      hash: HASH,
      requireCanonical: true,
    });
    const tagOrNumber = "a block tag (latest, earliest, pending, safe, finalized) or a hex block number";
    refused(() => parseBlockSelector("Latest", "block"), `block must be ${tagOrNumber}, got "Latest"`);
    refused(() => parseBlockSelector(16, "block"), `block must be ${tagOrNumber}, got 16`);
    refused(
      () => parseBlockSelector({ blockNumber: "0x1", blockHash: HASH }, "block"),
      `block must be ${tagOrNumber}, or an object with either blockNumber or blockHash, got ${JSON.stringify({ blockNumber: "0x1", blockHash: HASH }).slice(0, 77)}...`,
    );
    refused(
      () => parseBlockSelector({}, "block"),
      `block must be ${tagOrNumber}, or an object with either blockNumber or blockHash, got {}`,
    );
    refused(
      () => parseBlockSelector({ blockNumber: "0x01" }, "block"),
      `block.blockNumber must be ${tagOrNumber}, got "0x01"`,
    );
    refused(
      () => parseBlockSelector({ blockNumber: "0x1", requireCanonical: true }, "block"),
      'block.requireCanonical must be left out with blockNumber (it goes with blockHash), got {"blockNumber":"0x1","requireCanonical":true}',
    );
    refused(
      () => parseBlockSelector({ blockHash: HASH, requireCanonical: "yes" }, "block"),
      'block.requireCanonical must be true or false, got "yes"',
    );
  });

  it("booleans and objects", () => {
    assert.equal(parseBoolean(false, "full"), false);
    refused(() => parseBoolean("true", "full"), 'full must be true or false, got "true"');
    assert.deepEqual(parseObject({ to: "0x" }, "call"), { to: "0x" });
    const deep = JSON.parse(`${"[".repeat(30_000)}${"]".repeat(30_000)}`) as unknown;
    refused(() => parseObject(deep, "call"), "call must be an object, got a value nested too deep to show");
    for (const [value, shown] of [
      [[], "[]"],
      [null, "null"],
      ["{}", '"{}"'],
    ] as const)
      refused(() => parseObject(value, "call"), `call must be an object, got ${shown}`);
  });

  it("encodes quantities and data as clients read them", () => {
    assert.equal(encodeQuantity(0), "0x0");
    assert.equal(encodeQuantity(0n), "0x0");
    assert.equal(encodeQuantity(255), "0xff");
    assert.equal(encodeQuantity(1n << 100n), `0x1${"0".repeat(25)}`);
    assert.throws(() => encodeQuantity(-1), RangeError);
    assert.throws(() => encodeQuantity(1.5), RangeError);
    assert.throws(() => encodeQuantity(-1n), RangeError);
    assert.equal(encodeData(new Uint8Array()), "0x");
    assert.equal(encodeData(new Uint8Array([0, 1, 0xab])), "0x0001ab");
    const view = new Uint8Array([9, 8, 7, 6]).subarray(1, 3);
    assert.equal(encodeData(view), "0x0807");
  });
});

describe("JSON-RPC errors", () => {
  it("carry the codes and geth's wording", () => {
    assert.deepEqual(RpcError.methodNotFound("eth_fillTransaction").toErrorObject(), {
      code: -32601,
      message: "the method eth_fillTransaction does not exist/is not available",
    });
    assert.deepEqual(RpcError.executionReverted("0x82b42900").toErrorObject(), {
      code: 3,
      message: "execution reverted",
      data: "0x82b42900",
    });
    assert.deepEqual(RpcError.executionReverted("0x08c379a0", "not allowed").toErrorObject(), {
      code: 3,
      message: "execution reverted: not allowed",
      data: "0x08c379a0",
    });
    assert.deepEqual(RpcError.serverError("nonce too low").toErrorObject(), {
      code: -32000,
      message: "nonce too low",
    });
    assert.deepEqual(RpcError.serverError("filter not found").toErrorObject(), {
      code: -32000,
      message: "filter not found",
    });
    assert.deepEqual(RpcError.limitExceeded("query returned more than 10000 results").toErrorObject(), {
      code: -32005,
      message: "query returned more than 10000 results",
    });
    assert.equal(RpcError.parseError("x").code, -32700);
    assert.equal(RpcError.invalidRequest("x").code, -32600);
    assert.equal(RpcError.invalidParams("x").code, -32602);
    assert.equal(RpcError.internalError().code, -32603);
  });
});
