/**
 * eth_getLogs' answer as the database joins it, on each engine (SQLite's group_concat, PostgreSQL's
 * string_agg): every matching log's stored JSON, in log order, and the bound on how many one answer
 * holds, with the range to retry given as public nodes give it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Address, numberToHex } from "viem";
import { type Devchain, createDevchain } from "../../src/devchain/index.js";
import { logMethods } from "../../src/devchain/rpc/methods/logs.js";
import { RpcError } from "../../src/devchain/rpc/errors.js";
import { createLogger } from "../../src/http/index.js";
import { CONTRACT_ADDRESSES } from "../../src/protocol/registryAddresses.js";
import { testEngines } from "../support/databases.js";

const custody = (i: number) => numberToHex(0xa0 + i, { size: 20 }) as Address;

for (const engine of await testEngines()) {
  describe(`eth_getLogs answers on ${engine.engine}`, { skip: engine.skip }, () => {
    let drop: () => Promise<void>;
    let devchain: Devchain;
    const context = { clientAddress: "test", log: createLogger("silent"), operatorRefusal: () => undefined };

    before(async () => {
      const created = await engine.create();
      drop = created.drop;
      devchain = await createDevchain({
        database: created.config,
        logger: createLogger("silent"),
        blockTimeSeconds: 0,
      });
      // Fids 1 to 4, each registered in a block of its own: one Register log in each of blocks 1 to 4.
      for (let i = 0; i < 4; i++) await devchain.chain.register({ custody: custody(i) });
    });
    after(async () => {
      await devchain?.close();
      await drop?.();
    });

    const filter = (fromBlock: number, toBlock: number) => ({
      address: CONTRACT_ADDRESSES.idRegistry,
      fromBlock: numberToHex(fromBlock),
      toBlock: numberToHex(toBlock),
    });

    it("joins the stored JSON of every matching log, in log order", async () => {
      const methods = logMethods(devchain.chain.ledger);
      const answer = (await methods.eth_getLogs!([filter(1, 4)], context)) as { text: string };
      const logs = JSON.parse(answer.text) as { blockNumber: string; logIndex: string; topics: string[] }[];
      assert.deepEqual(
        logs.map((log) => [log.blockNumber, log.logIndex, BigInt(log.topics[2]!)]),
        [1, 2, 3, 4].map((fid) => [numberToHex(fid), "0x0", BigInt(fid)]),
      );
      const stored = await Promise.all(
        [1, 2, 3, 4].map(async (block) => {
          const [tx] = await devchain.chain.ledger.transactionsOfBlock(block);
          return (await devchain.chain.ledger.logJsonOfTransaction(tx!.seq))[0];
        }),
      );
      assert.equal(answer.text, `[${stored.join(",")}]`);
      const none = (await methods.eth_getLogs!([filter(5, 9)], context)) as { text: string };
      assert.equal(none.text, "[]");
    });

    it("refuses an answer over the bound and names the range to ask instead", async () => {
      const methods = logMethods(devchain.chain.ledger, Date.now, 2);
      await assert.rejects(
        methods.eth_getLogs!([filter(1, 4)], context),
        (error: unknown) =>
          error instanceof RpcError &&
          error.code === -32005 &&
          error.message === "query returned more than 2 results, retry with the range 0x1-0x1",
      );
      const exact = (await methods.eth_getLogs!([filter(2, 3)], context)) as { text: string };
      assert.equal(JSON.parse(exact.text).length, 2);
    });
  });
}
