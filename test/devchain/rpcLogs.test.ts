/**
 * eth_getLogs and the filters, as nodes answer them (docs/devchain.md, "JSON-RPC"): addresses one or
 * many, topics by position with null and OR-lists, a block range or a block hash; filters that
 * answer only what is new since they were last polled. Over HTTP, on a devchain that mines each
 * write at once.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Address, encodeEventTopics, type Hex, numberToHex, pad, toHex } from "viem";
import { type Devchain, createDevchain } from "../../src/devchain/index.js";
import { logsBloom } from "../../src/devchain/ledger/bloom.js";
import { createLogger, listen } from "../../src/http/index.js";
import { idRegistryAbi } from "../../src/protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../src/protocol/registryAddresses.js";

const custody = (i: number) => pad(toHex(0xc0 + i), { size: 20 }) as Address;
const REGISTER = encodeEventTopics({ abi: idRegistryAbi, eventName: "Register" })[0] as Hex;
const fidTopic = (fid: number) => pad(toHex(fid), { size: 32 });

interface Log {
  address: string;
  topics: Hex[];
  blockNumber: Hex;
  blockHash: Hex;
  logIndex: Hex;
}

describe("eth_getLogs and filters", () => {
  let dir: string;
  let devchain: Devchain;
  let url: string;

  async function rpc(
    method: string,
    ...params: unknown[]
  ): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    const answer = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    assert.equal(answer.status, 200);
    return (await answer.json()) as { result?: unknown; error?: { code: number; message: string } };
  }
  const logs = async (filter: Record<string, unknown>) => (await rpc("eth_getLogs", filter)).result as Log[];
  /** Which fids the Register logs of an answer are for, in order. */
  const fidsOf = (answer: Log[]) => answer.map((log) => Number(BigInt(log.topics[2]!)));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "castnet-rpc-logs-"));
    devchain = await createDevchain({
      database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
      logger: createLogger("silent"),
      blockTimeSeconds: 0,
    });
    url = await listen(devchain.app, "devchain", "127.0.0.1", 0);
    // Fids 1 to 3, each registered (and so logged) in a block of its own: blocks 1 to 3.
    for (let i = 1; i <= 3; i++) await devchain.chain.register({ custody: custody(i) });
    await devchain.chain.addKey({
      fid: 1,
      key: `0x${"11".repeat(32)}`,
      keyType: 1,
      metadataType: 1,
      metadata: "0x",
    });
  });

  after(async () => {
    await devchain?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers each log with its block, index and removed: false, in block order", async () => {
    const answer = await logs({ address: CONTRACT_ADDRESSES.idRegistry, fromBlock: "0x0" });
    assert.deepEqual(fidsOf(answer), [1, 2, 3]);
    assert.deepEqual(
      answer.map((log) => [log.blockNumber, log.logIndex, log.topics[0], log.topics[1]]),
      [1, 2, 3].map((n) => [numberToHex(n), "0x0", REGISTER, pad(custody(n), { size: 32 }).toLowerCase()]),
    );
    const block = (await rpc("eth_getBlockByNumber", "0x2", false)).result as { hash: Hex };
    assert.equal(answer[1]!.blockHash, block.hash);
  });

  it("takes one address or several, in any case", async () => {
    const both = await logs({
      address: [
        CONTRACT_ADDRESSES.idRegistry.toUpperCase().replace("0X", "0x"),
        CONTRACT_ADDRESSES.keyRegistry,
      ],
      fromBlock: "0x0",
    });
    assert.deepEqual(
      both.map((log) => log.address),
      [...Array(3).fill(CONTRACT_ADDRESSES.idRegistry), CONTRACT_ADDRESSES.keyRegistry],
    );
    assert.deepEqual(await logs({ address: CONTRACT_ADDRESSES.storageRegistry, fromBlock: "0x0" }), []);
  });

  it("reads topics by position: null and an empty list match anything, a list is any of", async () => {
    const ofFids = async (topics: unknown[]) =>
      fidsOf(await logs({ address: CONTRACT_ADDRESSES.idRegistry, fromBlock: "0x0", topics }));
    assert.deepEqual(await ofFids([REGISTER]), [1, 2, 3]);
    assert.deepEqual(await ofFids([null, null, fidTopic(2)]), [2]);
    assert.deepEqual(await ofFids([REGISTER, [], [fidTopic(3), fidTopic(1)]]), [1, 3]);
    assert.deepEqual(await ofFids([fidTopic(1)]), []);
  });

  it("takes a block range (latest by default) or one block by its hash", async () => {
    assert.deepEqual(fidsOf(await logs({ fromBlock: "0x2", toBlock: "0x2" })), [2]);
    assert.deepEqual(await logs({ fromBlock: "0x3", toBlock: "0x2" }), []);
    const latest = await logs({});
    assert.equal(latest.length, 1, "the key add's block, the latest");
    const block = (await rpc("eth_getBlockByNumber", "0x3", false)).result as { hash: Hex };
    assert.deepEqual(fidsOf(await logs({ blockHash: block.hash })), [3]);
    assert.deepEqual(await rpc("eth_getLogs", { blockHash: `0x${"ab".repeat(32)}` }), {
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32000, message: "unknown block" },
    });
    const both = await rpc("eth_getLogs", { blockHash: block.hash, fromBlock: "0x1" });
    assert.equal(both.error?.code, -32602);
  });

  it("a log filter answers only what is new at each poll; a block filter the new blocks' hashes", async () => {
    const logFilter = (await rpc("eth_newFilter", { address: CONTRACT_ADDRESSES.idRegistry }))
      .result as string;
    const blockFilter = (await rpc("eth_newBlockFilter")).result as string;
    assert.deepEqual((await rpc("eth_getFilterChanges", logFilter)).result, []);
    const fourth = await devchain.chain.register({ custody: custody(4) });
    assert.equal(fourth.fid, 4);
    assert.deepEqual(fidsOf((await rpc("eth_getFilterChanges", logFilter)).result as Log[]), [4]);
    assert.deepEqual((await rpc("eth_getFilterChanges", logFilter)).result, []);
    const hashes = (await rpc("eth_getFilterChanges", blockFilter)).result as Hex[];
    const latest = (await rpc("eth_getBlockByNumber", "latest", false)).result as { hash: Hex };
    assert.deepEqual(hashes, [latest.hash]);
    assert.deepEqual(fidsOf((await rpc("eth_getFilterLogs", logFilter)).result as Log[]), [4]);
    assert.equal((await rpc("eth_uninstallFilter", logFilter)).result, true);
    assert.equal((await rpc("eth_uninstallFilter", logFilter)).result, false);
    assert.deepEqual((await rpc("eth_getFilterChanges", logFilter)).error, {
      code: -32000,
      message: "filter not found",
    });
  });

  it("gives blocks and receipts the bloom of their logs, and an empty block an empty one", async () => {
    const block = (await rpc("eth_getBlockByNumber", "0x2", false)).result as {
      logsBloom: Hex;
      transactions: Hex[];
    };
    const expected = toHex(
      logsBloom([
        {
          address: CONTRACT_ADDRESSES.idRegistry,
          topics: (await logs({ fromBlock: "0x2", toBlock: "0x2" }))[0]!.topics,
        },
      ]),
    );
    assert.equal(block.logsBloom, expected);
    const receipt = (await rpc("eth_getTransactionReceipt", block.transactions[0])).result as {
      logsBloom: Hex;
    };
    assert.equal(receipt.logsBloom, expected);
    await rpc("castnet_mine");
    const empty = (await rpc("eth_getBlockByNumber", "latest", false)).result as {
      logsBloom: Hex;
      transactions: Hex[];
    };
    assert.deepEqual([empty.transactions, empty.logsBloom], [[], `0x${"00".repeat(256)}`]);
  });
});
