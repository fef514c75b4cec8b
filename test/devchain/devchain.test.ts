import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { bytesToHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type Devchain, createDevchain } from "../../src/devchain/index.js";
import { createLogger } from "../../src/http/index.js";
import { generateEd25519KeyPair } from "../../src/protocol/ed25519.js";
import { encodeSignedKeyRequestMetadata, signSignedKeyRequest } from "../../src/protocol/eip712/index.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { toProtocolTime } from "../../src/protocol/time.js";
import type { DatabaseConfig } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";

const logger = createLogger("silent");
const NOW_MS = 1_750_000_000_000;
const NOW_S = NOW_MS / 1000;
const YEAR = 365 * 24 * 60 * 60;
const HASH = /^0x[0-9a-f]{64}$/;

function newKey(): Hex {
  return bytesToHex(generateEd25519KeyPair().publicKey);
}

async function json(devchain: Devchain, method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) {
  const response = await devchain.app.inject({ method, url, payload: payload as object });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

for (const engine of await testEngines()) {
  describe(`devchain over HTTP on ${engine.engine}`, { skip: engine.skip }, () => {
    let config: DatabaseConfig;
    let drop: () => Promise<void>;
    let devchain: Devchain;
    let clock = NOW_MS;
    const open = (blockTimeSeconds = 0) =>
      createDevchain({ database: config, logger, blockTimeSeconds, now: () => clock });

    before(async () => {
      const created = await engine.create();
      config = created.config;
      drop = created.drop;
      devchain = await open();
    });
    after(async () => {
      await devchain?.close();
      await drop?.();
    });

    const custody = privateKeyToAccount(generatePrivateKey());
    const recovery = privateKeyToAccount(generatePrivateKey());
    const signerKey = newKey();
    let metadata: Hex;
    const written: Record<string, unknown>[] = [];

    it("registers a fid with custody and recovery addresses", async () => {
      const registered = await json(devchain, "POST", "/v1/fids", {
        custody: custody.address.toLowerCase(),
        recovery: recovery.address,
      });
      assert.equal(registered.status, 200);
      assert.deepEqual(registered.body, { fid: 1, custody: custody.address, recovery: recovery.address });
      const events = await json(devchain, "GET", "/v1/events?from_block=0");
      const event = (events.body.events as Record<string, unknown>[])[0]!;
      assert.match(event.blockHash as string, HASH);
      assert.match(event.transactionHash as string, HASH);
      assert.deepEqual(event, {
        type: "EVENT_TYPE_ID_REGISTER",
        chainId: 10,
        blockNumber: 1,
        blockHash: event.blockHash,
        blockTimestamp: NOW_S,
        transactionHash: event.transactionHash,
        logIndex: 0,
        fid: 1,
        idRegisterEventBody: {
          to: custody.address.toLowerCase(),
          eventType: "ID_REGISTER_EVENT_TYPE_REGISTER",
          from: "",
          recoveryAddress: recovery.address.toLowerCase(),
        },
        txIndex: 0,
        version: 2,
      });
      written.push(event);
    });

    it("adds a signer with the metadata kept as given", async () => {
      const deadline = NOW_S + 3600;
      const signature = await signSignedKeyRequest(custody, NEUTRAL, {
        requestFid: 1,
        key: signerKey,
        deadline,
      });
      metadata = encodeSignedKeyRequestMetadata({
        requestFid: 1,
        requestSigner: custody.address,
        signature,
        deadline,
      });
      clock += 2000;
      const added = await json(devchain, "POST", "/v1/fids/1/signers", { key: signerKey, metadata });
      assert.equal(added.status, 200);
      assert.notEqual(added.body.blockHash, written[0]!.blockHash);
      assert.deepEqual(added.body, {
        type: "EVENT_TYPE_SIGNER",
        chainId: 10,
        blockNumber: 2,
        blockHash: added.body.blockHash,
        blockTimestamp: NOW_S + 2,
        transactionHash: added.body.transactionHash,
        logIndex: 0,
        fid: 1,
        signerEventBody: {
          key: signerKey,
          keyType: 1,
          eventType: "SIGNER_EVENT_TYPE_ADD",
          metadata: Buffer.from(metadata.slice(2), "hex").toString("base64"),
          metadataType: 1,
        },
        txIndex: 0,
        version: 2,
      });
      written.push(added.body);
    });

    it("rents storage paid by the custody address, expiring in a year (protocol time)", async () => {
      const rented = await json(devchain, "POST", "/v1/fids/1/storage", { units: 3 });
      assert.equal(rented.status, 200);
      assert.deepEqual(rented.body, {
        type: "EVENT_TYPE_STORAGE_RENT",
        chainId: 10,
        blockNumber: 3,
        blockHash: rented.body.blockHash,
        blockTimestamp: NOW_S + 2,
        transactionHash: rented.body.transactionHash,
        logIndex: 0,
        fid: 1,
        storageRentEventBody: {
          payer: Buffer.from(custody.address.slice(2), "hex").toString("base64"),
          units: 3,
          expiry: toProtocolTime((NOW_S + 2) * 1000) + YEAR,
        },
        txIndex: 0,
        version: 0,
      });
      written.push(rented.body);
    });

    it("reads the account with its active signers and unexpired units", async () => {
      const account = await json(devchain, "GET", "/v1/fids/1");
      assert.equal(account.status, 200);
      assert.deepEqual(account.body, {
        fid: 1,
        custody: custody.address,
        recovery: recovery.address,
        signers: [{ key: signerKey, keyType: 1, metadataType: 1, metadata }],
        storageUnits: 3,
      });
      const byAddress = await json(devchain, "GET", `/v1/addresses/${custody.address.toLowerCase()}`);
      assert.deepEqual(byAddress, { status: 200, body: { address: custody.address, fid: 1 } });
    });

    it("serves the events in block and log order from any block", async () => {
      const all = await json(devchain, "GET", "/v1/events?from_block=0");
      assert.deepEqual(all.body, { events: written, nextFromBlock: 4, hasMore: false });
      const later = await json(devchain, "GET", "/v1/events?from_block=2");
      assert.deepEqual(later.body, { events: written.slice(1), nextFromBlock: 4, hasMore: false });
      const none = await json(devchain, "GET", "/v1/events?from_block=9");
      assert.deepEqual(none.body, { events: [], nextFromBlock: 9, hasMore: false });
      const latest = await json(devchain, "GET", "/v1/blocks/latest");
      assert.deepEqual(latest.body, { number: 3, hash: written[2]!.blockHash, timestamp: NOW_S + 2 });
    });

    it("removes a signer with a remove event", async () => {
      const removed = await json(devchain, "DELETE", `/v1/fids/1/signers/${signerKey}`);
      assert.equal(removed.status, 200);
      assert.deepEqual(removed.body.signerEventBody, {
        key: signerKey,
        keyType: 0,
        eventType: "SIGNER_EVENT_TYPE_REMOVE",
        metadata: "",
        metadataType: 0,
      });
      assert.equal(removed.body.blockNumber, 4);
      assert.equal(removed.body.version, 2);
    });

    it("no longer lists a removed signer", async () => {
      const account = await json(devchain, "GET", "/v1/fids/1");
      assert.deepEqual(account.body.signers, []);
    });

    it("never adds a removed signer again", async () => {
      const again = await json(devchain, "POST", "/v1/fids/1/signers", { key: signerKey, metadata });
      assert.equal(again.status, 409);
      assert.equal(again.body.error, "key_removed");
    });

    it("counts only unexpired storage units", async () => {
      clock += (YEAR - 1) * 1000;
      assert.equal((await json(devchain, "GET", "/v1/fids/1")).body.storageUnits, 3);
      clock += 1000;
      assert.equal((await json(devchain, "GET", "/v1/fids/1")).body.storageUnits, 0);
      clock = NOW_MS + 2000;
    });

    it("accepts a write without waiting and reports its status", async () => {
      const pending = await json(devchain, "POST", "/v1/fids?wait=false", {
        custody: privateKeyToAccount(generatePrivateKey()).address,
      });
      assert.equal(pending.status, 202);
      assert.match(pending.body.transactionHash as string, HASH);
      // With no block time every transaction is mined at once, in a block of its own.
      assert.deepEqual(pending.body, {
        transactionHash: pending.body.transactionHash,
        status: "mined",
        blockNumber: 5,
        fid: 2,
      });
      const status = await json(
        devchain,
        "GET",
        `/v1/transactions/${pending.body.transactionHash as string}`,
      );
      assert.deepEqual(status, {
        status: 200,
        body: { transactionHash: pending.body.transactionHash, status: "mined", blockNumber: 5 },
      });
    });

    it("keeps its state and its chain across a restart", async () => {
      const before = await json(devchain, "GET", "/v1/events?from_block=0");
      await devchain.close();
      devchain = await open();
      const afterRestart = await json(devchain, "GET", "/v1/events?from_block=0");
      assert.deepEqual(afterRestart.body, before.body);
      const third = await json(devchain, "POST", "/v1/fids", {
        custody: privateKeyToAccount(generatePrivateKey()).address,
      });
      assert.equal(third.body.fid, 3);
      const events = await json(devchain, "GET", "/v1/events?from_block=6");
      const event = (events.body.events as Record<string, unknown>[])[0]!;
      assert.equal(event.blockNumber, 6);
      assert.notEqual(event.transactionHash, written[0]!.transactionHash);
    });

    it("mines on the block timer and answers waiting writes once mined", async () => {
      await devchain.close();
      clock = NOW_MS + 10_000;
      devchain = await open(1);
      const start = Date.now();
      const [waited, pending] = await Promise.all([
        json(devchain, "POST", "/v1/fids", { custody: privateKeyToAccount(generatePrivateKey()).address }),
        json(devchain, "POST", "/v1/fids?wait=false", {
          custody: privateKeyToAccount(generatePrivateKey()).address,
        }),
      ]);
      assert.equal(pending.status, 202);
      assert.equal(pending.body.status, "pending");
      assert.equal(waited.status, 200);
      assert.ok(Date.now() - start < 4000, "a waiting write returns after about one block time");
      const status = await json(
        devchain,
        "GET",
        `/v1/transactions/${pending.body.transactionHash as string}`,
      );
      assert.deepEqual(status.body, {
        transactionHash: pending.body.transactionHash,
        status: "mined",
        blockNumber: 7,
      });
      // Both went into the same block, one log each. The two requests race to the server, so
      // which one is first in the block is not fixed.
      const events = await json(devchain, "GET", "/v1/events?from_block=7");
      const inBlock = events.body.events as Record<string, unknown>[];
      assert.deepEqual(
        inBlock.map((e) => [e.blockNumber, e.txIndex, e.logIndex]),
        [
          [7, 0, 0],
          [7, 1, 1],
        ],
      );
      const waitedEvent = inBlock.find((e) => e.fid === waited.body.fid)!;
      const pendingEvent = inBlock.find((e) => e !== waitedEvent)!;
      assert.equal(pendingEvent.transactionHash, pending.body.transactionHash);
      assert.notEqual(waitedEvent.transactionHash, pending.body.transactionHash);
    });

    it("mines what is pending when it closes", async () => {
      await devchain.close();
      devchain = await open(3600);
      const pending = await json(devchain, "POST", "/v1/fids/1/storage?wait=false", { units: 1 });
      assert.equal(pending.body.status, "pending");
      await devchain.close();
      devchain = await open();
      const status = await json(
        devchain,
        "GET",
        `/v1/transactions/${pending.body.transactionHash as string}`,
      );
      assert.equal(status.body.status, "mined");
    });

    it("pages events by whole blocks", async () => {
      await devchain.close();
      devchain = await open(3600);
      const { chain } = devchain;
      const from = (await chain.latestBlockNumber()) + 1;
      const batch = async (count: number) => {
        for (let i = 0; i < count; i++) await chain.submitStorageRent(1, 1);
        return (await chain.mine())!;
      };
      const a = await batch(5);
      const b = await batch(1);
      const c = await batch(2);
      assert.deepEqual([a, b, c], [from, from + 1, from + 2]);
      const page = async (fromBlock: number, limit: number) => {
        const body = (await json(devchain, "GET", `/v1/events?from_block=${fromBlock}&limit=${limit}`)).body;
        const events = body.events as Record<string, unknown>[];
        return {
          blocks: events.map((e) => [e.blockNumber, e.logIndex]),
          next: body.nextFromBlock,
          more: body.hasMore,
        };
      };
      assert.deepEqual(await page(from, 6), {
        blocks: [
          [a, 0],
          [a, 1],
          [a, 2],
          [a, 3],
          [a, 4],
          [b, 0],
        ],
        next: c,
        more: true,
      });
      // A block larger than the limit comes whole.
      assert.deepEqual((await page(from, 2)).blocks.length, 5);
      assert.deepEqual(await page(c, 6), {
        blocks: [
          [c, 0],
          [c, 1],
        ],
        next: c + 1,
        more: false,
      });
      assert.deepEqual(
        (await chain.eventsFromBlock(from, 6)).map((e) => e.blockNumber),
        [a, a, a, a, a, b],
      );
    });
  });
}
