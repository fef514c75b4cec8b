import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { bytesToHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { DevchainError, type Devchain, createDevchain } from "../../src/devchain/index.js";
import { createLogger } from "../../src/http/index.js";
import { generateEd25519KeyPair } from "../../src/protocol/ed25519.js";
import { testEngines } from "../support/databases.js";

const logger = createLogger("silent");

function newAddress(): Hex {
  return privateKeyToAccount(generatePrivateKey()).address;
}

for (const engine of await testEngines()) {
  describe(`concurrent writes on ${engine.engine}`, { skip: engine.skip }, () => {
    let drop: () => Promise<void>;
    const instances: Devchain[] = [];

    before(async () => {
      const created = await engine.create();
      drop = created.drop;
      // On PostgreSQL two instances (two pools) play two server processes sharing one database.
      // better-sqlite3 blocks the event loop while it waits for the file lock, so SQLite gets one.
      const count = engine.engine === "postgres" ? 2 : 1;
      for (let i = 0; i < count; i++) {
        instances.push(
          await createDevchain({ database: created.config, logger, blockTimeSeconds: i === 0 ? 0 : 0.05 }),
        );
      }
    });
    after(async () => {
      for (const instance of instances) await instance.close();
      await drop?.();
    });

    const via = (i: number) => instances[i % instances.length]!.chain;

    it("gives every registration its own fid and one custody address one fid", async () => {
      const custodies = Array.from({ length: 20 }, newAddress);
      const contested = newAddress();
      const results = await Promise.allSettled([
        ...custodies.map((custody, i) => via(i).register({ custody })),
        ...Array.from({ length: 10 }, (_, i) => via(i).register({ custody: contested })),
      ]);
      const fids = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.fid] : []));
      assert.equal(fids.length, 21);
      assert.deepEqual(
        [...fids].sort((a, b) => a - b),
        Array.from({ length: 21 }, (_, i) => i + 1),
      );
      for (const r of results) {
        if (r.status === "rejected") {
          assert.ok(r.reason instanceof DevchainError);
          assert.equal(r.reason.code, "custody_taken");
        }
      }
      for (const [i, custody] of custodies.entries()) {
        const fid = await via(i + 1).fidOf(custody);
        assert.equal(await via(i).custodyOf(fid!), custody);
      }
    });

    it("adds one key once however many ask at the same time", async () => {
      const key = bytesToHex(generateEd25519KeyPair().publicKey);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => via(i).addKey({ fid: 1, key })),
      );
      assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
      assert.equal((await via(0).getAccount(1))?.signers.length, 1);
    });

    it("keeps every event in exactly one place, in block order, in blocks both processes see", async () => {
      const events = await via(0).eventsFromBlock(0, 1000);
      assert.equal(events.length, 22);
      const positions = events.map((e) => `${e.blockNumber}:${e.logIndex}`);
      assert.equal(new Set(positions).size, positions.length);
      const blocks = events.map((e) => e.blockNumber);
      assert.deepEqual(
        blocks,
        [...blocks].sort((a, b) => a - b),
      );
      // The second process mines empty blocks on its timer too: the chain may be longer than its events.
      const latest = await via(0).latestBlockNumber();
      assert.ok(latest >= blocks[blocks.length - 1]!);
      assert.ok((await via(1).latestBlockNumber()) >= latest);
    });
  });
}
