/**
 * The hub following a chain over Ethereum JSON-RPC (src/interfaces/chainRpc.ts): a small node
 * (test/support/jsonRpcNode.ts) serves registry logs encoded by viem from the reference library's
 * ABIs; the source reads them in bounded, final ranges, and a real hub merges them.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { type Address, hexToBytes, toHex, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { OnChainEventSource } from "../../src/interfaces/chain.js";
import { type JsonRpcEventSourceOptions, jsonRpcEventSource } from "../../src/interfaces/chainRpc.js";
import { testEngines } from "../support/databases.js";
import { JsonRpcNode, type LogsLimit } from "../support/jsonRpcNode.js";
import { type EmittedLog, ID_GATEWAY, registryLog } from "../support/registryLogs.js";
import {
  type Json,
  type Stack,
  allEvents,
  castAdd,
  core,
  get,
  newSigner,
  startStack,
  submit,
  unwrap,
} from "./support.js";

const nodes: JsonRpcNode[] = [];

async function startNode(chainId?: number): Promise<{ node: JsonRpcNode; url: string }> {
  const node = new JsonRpcNode(chainId);
  nodes.push(node);
  return { node, url: await node.listen() };
}

after(async () => {
  for (const node of nodes) await node.close();
});

const follow = (url: string, options: Partial<JsonRpcEventSourceOptions> = {}) =>
  jsonRpcEventSource({ url, pollMs: 10, ...options });

const address = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** A registration as the IdGateway makes it: Register, then the Rent it pays for. */
const registration = (custody: Address, fid: number): EmittedLog[] => [
  registryLog.register(custody, fid, zeroAddress),
  registryLog.rent(ID_GATEWAY, fid, 1),
];

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 5_000; !(await check()); await sleep(10)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
  }
}

/** eth_getLogs requests the node answered, as [from, to] block numbers. */
function logRanges(node: JsonRpcNode, answered = true): [number, number][] {
  return node.calls
    .filter((call) => call.method === "eth_getLogs" && (call.error === undefined) === answered)
    .map((call) => {
      const filter = call.params[0] as { fromBlock: string; toBlock: string };
      return [Number(filter.fromBlock), Number(filter.toBlock)];
    });
}

describe("the JSON-RPC event source", () => {
  it("reads final blocks only: the head less the confirmations", async () => {
    const { node, url } = await startNode();
    node.mine([registration(address(), 1)]);
    node.mine([registration(address(), 2)]);
    const source = follow(url);
    assert.equal(await source.latestBlockNumber(), 0);
    assert.deepEqual(await source.eventsFromBlock(0, 100), []);
    node.mineEmpty(1);
    assert.equal(await source.latestBlockNumber(), 1);
    assert.deepEqual(
      (await source.eventsFromBlock(0, 100)).map((e) => [e.fid, e.blockNumber]),
      [
        [1, 1],
        [1, 1],
      ],
    );
    node.mineEmpty(1);
    assert.deepEqual(
      (await source.eventsFromBlock(2, 100)).map((e) => e.fid),
      [2, 2],
    );
    assert.deepEqual(await follow(url, { confirmations: 0 }).eventsFromBlock(4, 100), []);
  });

  it("reads on across empty ranges to the next events, and never reads an empty range twice", async () => {
    const { node, url } = await startNode();
    node.mineEmpty(1499);
    node.mine([registration(address(), 1)]);
    node.mineEmpty(1699);
    node.mine([registration(address(), 2)]);
    node.mineEmpty(450);
    const source = follow(url, { confirmations: 0 });
    const events = await source.eventsFromBlock(0, 500);
    assert.deepEqual(
      events.map((e) => [e.fid, e.blockNumber]),
      [
        [1, 1500],
        [1, 1500],
        [2, 3200],
        [2, 3200],
      ],
    );
    assert.deepEqual(logRanges(node), [
      [0, 999],
      [1000, 1999],
      [2000, 2999],
      [3000, 3650],
    ]);
    // What was read past block 3200 is known to hold nothing: only new blocks are read.
    node.calls.length = 0;
    assert.deepEqual(await source.eventsFromBlock(3201, 500), []);
    assert.deepEqual(await source.eventsFromBlock(3201, 500), []);
    assert.deepEqual(logRanges(node), []);
    node.mineEmpty(5);
    assert.deepEqual(await source.eventsFromBlock(3201, 500), []);
    assert.deepEqual(logRanges(node), [[3651, 3655]]);

    // It stops reading once it has a page's worth.
    node.calls.length = 0;
    const small = await follow(url, { confirmations: 0 }).eventsFromBlock(0, 2);
    assert.deepEqual(
      small.map((e) => e.blockNumber),
      [1500, 1500],
    );
    assert.deepEqual(logRanges(node), [
      [0, 999],
      [1000, 1999],
    ]);
  });

  it("cuts a page at a block boundary, and comes with a block larger than the limit whole", async () => {
    const { node, url } = await startNode();
    node.mine([registration(address(), 1), registration(address(), 2)]);
    node.mine([registration(address(), 3)]);
    const source = follow(url, { confirmations: 0 });
    assert.deepEqual(
      (await source.eventsFromBlock(0, 5)).map((e) => [e.fid, e.logIndex, e.txIndex]),
      [
        [1, 0, 0],
        [1, 1, 0],
        [2, 2, 1],
        [2, 3, 1],
      ],
    );
    assert.equal((await source.eventsFromBlock(0, 1)).length, 4);
    assert.deepEqual(
      (await source.eventsFromBlock(2, 1)).map((e) => e.fid),
      [3, 3],
    );
  });

  it("takes each event's place and time from the node, asking a block's time once", async () => {
    const { node, url } = await startNode();
    const block = node.mine([registration(address(), 1), [registryLog.changeRecoveryAddress(1, address())]]);
    const source = follow(url, { confirmations: 0 });
    const events = await source.eventsFromBlock(0, 100);
    assert.deepEqual(
      events.map((e) => [
        toHex(e.blockHash),
        e.blockTimestamp,
        toHex(e.transactionHash),
        e.txIndex,
        e.logIndex,
      ]),
      [
        [block.hash, block.timestamp, block.transactions[0], 0, 0],
        [block.hash, block.timestamp, block.transactions[0], 0, 1],
        [block.hash, block.timestamp, block.transactions[1], 1, 2],
      ],
    );
    await source.eventsFromBlock(0, 100);
    assert.equal(node.calls.filter((call) => call.method === "eth_getBlockByHash").length, 1);
  });

  it("starts at the first block given, at the addresses given", async () => {
    const { node, url } = await startNode();
    const registries = { idRegistry: address(), keyRegistry: address(), storageRegistry: address() };
    const elsewhere = (log: EmittedLog, at: Address) => ({ ...log, address: at });
    node.mine([registration(address(), 1)]);
    node.mineEmpty(10);
    node.mine([
      registration(address(), 2),
      [
        elsewhere(registryLog.register(address(), 3, zeroAddress), registries.idRegistry),
        elsewhere(registryLog.rent(ID_GATEWAY, 3, 2), registries.storageRegistry),
      ],
    ]);
    assert.deepEqual(
      (await follow(url, { confirmations: 0, firstBlock: 5 }).eventsFromBlock(0, 100)).map((e) => e.fid),
      [2, 2],
    );
    const moved = follow(url, { confirmations: 0, addresses: registries });
    assert.deepEqual(
      (await moved.eventsFromBlock(0, 100)).map((e) => e.fid),
      [3, 3],
    );
  });

  const limits: [string, LogsLimit][] = [
    ["a block span (-32005)", { maxBlocks: 100, code: -32005 }],
    ["a result count (-32602)", { maxResults: 3, code: -32602 }],
  ];
  for (const [what, limit] of limits) {
    it(`asks for smaller ranges when the node limits ${what}, and misses nothing`, async () => {
      const { node, url } = await startNode();
      for (let fid = 1; fid <= 25; fid++) {
        node.mineEmpty(96);
        node.mine([registration(address(), fid)]);
      }
      node.logsLimit = limit;
      const source = follow(url, { confirmations: 0 });
      const fids: number[] = [];
      for (let from = 0; ;) {
        const events = await source.eventsFromBlock(from, 500);
        if (events.length === 0) break;
        fids.push(...events.map((e) => e.fid));
        from = events[events.length - 1]!.blockNumber + 1;
      }
      assert.deepEqual(fids, Array.from({ length: 25 }, (_, i) => [i + 1, i + 1]).flat());
      assert.ok(node.refusedLogs > 0);
      if (limit.maxBlocks !== undefined)
        for (const [from, to] of logRanges(node)) assert.ok(to - from + 1 <= limit.maxBlocks);
    });
  }

  it("tells listeners of new final blocks", async () => {
    const { node, url } = await startNode();
    const seen: number[] = [];
    const stop = follow(url, { confirmations: 1 }).onBlock((n) => seen.push(n));
    try {
      await until("block 0 is told", async () => seen.includes(0));
      node.mineEmpty(3);
      await until("block 2 is told", async () => seen.includes(2));
      assert.deepEqual(
        seen.filter((n) => n > 2),
        [],
      );
    } finally {
      stop();
    }
  });

  it("says which node fails, and how", async () => {
    const { url } = await startNode(8453);
    await assert.rejects(follow(url).latestBlockNumber(), {
      message: `the JSON-RPC node at ${url} is on chain 8453, not chain 10`,
    });
    assert.equal(await follow(url, { chainId: 8453, confirmations: 0 }).latestBlockNumber(), 0);

    const rest = createServer((_, response) => response.writeHead(404).end("{}"));
    await new Promise<void>((resolve) => rest.listen(0, "127.0.0.1", resolve));
    const restUrl = `http://127.0.0.1:${(rest.address() as AddressInfo).port}/`;
    await assert.rejects(follow(restUrl).eventsFromBlock(0, 10), {
      message: `the JSON-RPC node at ${restUrl} answered eth_chainId with HTTP 404: is it an Ethereum JSON-RPC endpoint?`,
    });
    await new Promise((resolve) => rest.close(resolve));
    await assert.rejects(follow(restUrl).eventsFromBlock(0, 10), (error: Error) =>
      error.message.startsWith(`the JSON-RPC node at ${restUrl} is unreachable`),
    );
    assert.throws(() => follow("localhost:8545"), /is not a URL|must be http or https/);
    assert.throws(() => follow(url, { blockRange: 0 }), /blockRange must be an integer ≥ 1/);
  });
});

for (const engine of await testEngines()) {
  describe(`a hub following JSON-RPC on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack(engine);
    });
    after(async () => {
      await stack?.close();
    });

    it("merges a registration, a key and a rent once final, then takes casts signed by that key", async () => {
      const { node, url } = await startNode();
      const app = privateKeyToAccount(generatePrivateKey());
      const user = privateKeyToAccount(generatePrivateKey());
      const { signer, key } = await newSigner();
      const metadata = unwrap(
        await new core.ViemLocalEip712Signer(app).getSignedKeyRequestMetadata({
          requestFid: 1n,
          key: hexToBytes(key),
          deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
        }),
      );
      node.mine([registration(app.address, 1)]);
      const registered = node.mine([registration(user.address, 2)]);
      node.mine([[registryLog.add(2, key, toHex(metadata))]]);
      const hub = await stack.startSeparateHub({ chain: follow(url) });
      await hub.service.syncChain();

      // Two confirmations on a head of 3: only the first block is final.
      const fidOf = async (custody: Address) =>
        (await get(hub, `/v1/onChainIdRegistryEventByAddress?address=${custody}`)).body.fid;
      assert.equal(await fidOf(app.address), 1);
      assert.equal(await fidOf(user.address), undefined);

      // New blocks are found by polling; each makes one more block final.
      node.mineEmpty(1);
      await until("fid 2 is registered", async () => (await fidOf(user.address)) === 2);
      const signers = async () => (await get(hub, `/v1/onChainSignersByFid?fid=2`)).body.events as Json[];
      assert.deepEqual(await signers(), []);
      node.mineEmpty(1);
      await until("the key is added", async () => (await signers()).length === 1);

      assert.equal((await signers())[0].signerEventBody.key, key);
      assert.equal((await get(hub, "/v1/storageLimitsByFid?fid=2")).body.units, 1);
      const events = (await get(hub, "/v1/onChainEventsByFid?fid=2&event_type=EVENT_TYPE_ID_REGISTER")).body
        .events as Json[];
      assert.deepEqual(
        events.map((e) => [e.blockNumber, e.blockHash, e.blockTimestamp, e.transactionHash, e.logIndex]),
        [[2, registered.hash, registered.timestamp, registered.transactions[0], 0]],
      );
      const account = { fid: 2, custody: user, signer, signerKey: key };
      const cast = await castAdd(account, "signed by a key added on a chain read over JSON-RPC");
      assert.equal((await submit(hub, cast)).status, 200);
    });

    it("stopped mid-catch-up and started again on its database, merges every event once", async () => {
      const { node, url } = await startNode();
      const fids = 700;
      for (let fid = 1; fid <= fids; fid += 10) {
        node.mine(Array.from({ length: 10 }, (_, i) => registration(address(), fid + i)));
      }
      node.mineEmpty(2);
      const total = fids * 2;

      // The hub is stopped while its second page is being read (pages hold 500 events).
      const first = counted(follow(url), { holdSecondPage: true });
      const database = await stack.freshDatabase();
      const hub = await stack.startHub({ database, chain: first.source });
      await first.secondPage;
      await hub.close();
      assert.ok(first.returned() > 0 && first.returned() < total);

      const second = counted(follow(url), { holdSecondPage: false });
      const again = await stack.startHub({ database, chain: second.source });
      await again.service.syncChain();
      assert.equal(first.returned() + second.returned(), total);
      const merged = (await allEvents(again)).filter((e) => e.type === "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT");
      assert.equal(merged.length, total);
      for (const fid of [1, 350, 700]) {
        for (const type of ["EVENT_TYPE_ID_REGISTER", "EVENT_TYPE_STORAGE_RENT"]) {
          const events = (await get(again, `/v1/onChainEventsByFid?fid=${fid}&event_type=${type}`)).body
            .events;
          assert.equal(events.length, 1);
        }
      }
    });
  });
}

/**
 * A source that counts the events it hands out; told to, it holds its second page until the follower
 * stops listening (the hub is closing), so that the hub stops with the catch-up half done.
 */
function counted(source: OnChainEventSource, { holdSecondPage }: { holdSecondPage: boolean }) {
  let returned = 0;
  let calls = 0;
  let release = () => {};
  const stopped = new Promise<void>((resolve) => (release = resolve));
  let reached = () => {};
  const secondPage = new Promise<void>((resolve) => (reached = resolve));
  const wrapped: OnChainEventSource = {
    latestBlockNumber: () => source.latestBlockNumber(),
    onBlock(listener) {
      const unsubscribe = source.onBlock(listener);
      return () => {
        unsubscribe();
        release();
      };
    },
    async eventsFromBlock(fromBlock, limit) {
      if (holdSecondPage && ++calls === 2) {
        reached();
        await stopped;
      }
      const events = await source.eventsFromBlock(fromBlock, limit);
      returned += events.length;
      return events;
    },
  };
  return { source: wrapped, secondPage, returned: () => returned };
}
