import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { bytesToHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { DevchainError, type Devchain, createDevchain } from "../../src/devchain/index.js";
import { type HttpChainClient, httpChainClient } from "../../src/interfaces/chainHttp.js";
import { createLogger, listen } from "../../src/http/index.js";
import { generateEd25519KeyPair } from "../../src/protocol/ed25519.js";
import { OnChainEvent } from "../../src/protocol/generated/onchain_event.js";
import { testEngines } from "../support/databases.js";

const logger = createLogger("silent");
const ADMIN_TOKEN = "s3cret-admin-token";

function newKey(): Hex {
  return bytesToHex(generateEd25519KeyPair().publicKey);
}

/** Events compared by their protobuf bytes: the decoder and the JSON parser differ only in absent keys. */
function wire(events: OnChainEvent[]): string[] {
  return events.map((event) => Buffer.from(OnChainEvent.encode(event).finish()).toString("hex"));
}

function newAddress(): Hex {
  return privateKeyToAccount(generatePrivateKey()).address;
}

async function rejectsWith(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof DevchainError, `expected a DevchainError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.ok(error.message.length > 0);
    return true;
  });
}

for (const engine of await testEngines()) {
  describe(`HTTP chain client on ${engine.engine}`, { skip: engine.skip }, () => {
    let drop: () => Promise<void>;
    let devchain: Devchain;
    let client: HttpChainClient;
    let url: string;

    before(async () => {
      const created = await engine.create();
      drop = created.drop;
      devchain = await createDevchain({
        database: created.config,
        logger,
        blockTimeSeconds: 0,
        adminToken: ADMIN_TOKEN,
      });
      url = await listen(devchain.app, "devchain", "127.0.0.1", 0);
      client = httpChainClient(url, { adminToken: ADMIN_TOKEN });
    });
    after(async () => {
      await devchain?.close();
      await drop?.();
    });

    const custody = newAddress();
    const key = newKey();

    it("writes through the operator endpoints and returns the mined events", async () => {
      const registered = await client.register({ custody });
      assert.deepEqual(registered, {
        fid: 1,
        custody,
        recovery: "0x0000000000000000000000000000000000000000",
      });
      const added = await client.addKey({ fid: 1, key, metadata: "0xabcd" });
      const rented = await client.rentStorage(1, 2);
      const inProcess = await devchain.chain.eventsFromBlock(0, 100);
      assert.equal(inProcess.length, 3);
      assert.deepEqual(wire([added, rented]), wire(inProcess.slice(1)));
      assert.deepEqual(wire(await client.eventsFromBlock(0, 100)), wire(inProcess));
      assert.deepEqual(wire(await client.eventsFromBlock(2, 1)), wire([added]));
    });

    it("reads what the in-process service reads", async () => {
      assert.deepEqual(await client.getAccount(1), await devchain.chain.getAccount(1));
      assert.deepEqual(await client.getAccount(1), {
        fid: 1,
        custody,
        recovery: "0x0000000000000000000000000000000000000000",
        signers: [{ key, keyType: 1, metadataType: 1, metadata: "0xabcd" }],
        storageUnits: 2,
      });
      assert.equal(await client.custodyOf(1), custody);
      assert.equal(await client.fidOf(custody), 1);
      assert.equal(await client.fidOf(custody.toLowerCase() as Hex), 1);
      assert.equal(await client.getAccount(99), undefined);
      assert.equal(await client.custodyOf(99), undefined);
      assert.equal(await client.fidOf(newAddress()), undefined);
      assert.equal(await client.latestBlockNumber(), await devchain.chain.latestBlockNumber());
    });

    it("submits a key add without waiting and reads its status", async () => {
      const second = newKey();
      const submitted = await client.submitKeyAdd({ fid: 1, key: second, keyType: 1, metadataType: 1 });
      assert.equal(submitted.status, "mined");
      assert.deepEqual(await client.getTransaction(submitted.transactionHash), submitted);
      assert.deepEqual(
        await client.getTransaction(submitted.transactionHash),
        await devchain.chain.getTransaction(submitted.transactionHash),
      );
      assert.equal(await client.getTransaction(`0x${"00".repeat(32)}`), undefined);
      const removed = await client.removeKey(1, second);
      assert.equal(removed.signerEventBody?.eventType, 2);
    });

    it("hears of new blocks by polling while someone listens", async () => {
      const heard: number[] = [];
      const stop = client.onBlock((blockNumber) => heard.push(blockNumber));
      try {
        await new Promise((resolve) => setTimeout(resolve, 700));
        const latest = await devchain.chain.latestBlockNumber();
        assert.deepEqual(heard, [latest]);
        await devchain.chain.rentStorage(1, 1);
        const deadline = Date.now() + 3000;
        while (heard.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        assert.deepEqual(heard, [latest, latest + 1]);
      } finally {
        stop();
      }
    });

    it("throws the devchain's refusals as DevchainError", async () => {
      await rejectsWith(client.register({ custody }), "custody_taken");
      await rejectsWith(client.addKey({ fid: 1, key }), "key_exists");
      await rejectsWith(client.addKey({ fid: 42, key: newKey() }), "unknown_fid");
      await rejectsWith(client.submitKeyAdd({ fid: 1, key: "0x1234" }), "invalid_key");
      await rejectsWith(client.rentStorage(1, 0), "bad_request");
      await rejectsWith(client.register({ custody: "0xnotanaddress" as Hex }), "invalid_address");
    });

    it("needs the admin token for writes, not for reads", async () => {
      const anonymous = httpChainClient(url);
      await rejectsWith(anonymous.register({ custody: newAddress() }), "unauthorized");
      const wrong = httpChainClient(url, { adminToken: "wrong" });
      await rejectsWith(wrong.submitKeyAdd({ fid: 1, key: newKey() }), "unauthorized");
      assert.equal(await anonymous.custodyOf(1), custody);
      assert.equal((await devchain.chain.getAccount(1))?.signers.length, 1);
    });

    it("reports an unreachable devchain as chain_unavailable", async () => {
      const nowhere = httpChainClient("http://127.0.0.1:9");
      await rejectsWith(nowhere.getAccount(1), "chain_unavailable");
      await rejectsWith(nowhere.latestBlockNumber(), "chain_unavailable");
    });
  });
}
