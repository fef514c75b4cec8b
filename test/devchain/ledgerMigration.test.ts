/**
 * A chain the first devchain kept (migration 0001's tables) is carried into the ledger (0002, 0003)
 * with nothing lost: the same accounts, the same on-chain events at the same places with the same
 * transaction hashes, the logs JSON-RPC serves, the state eth_call reads, and new writes after them.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { Kysely } from "kysely";
import { createPublicClient, http, keccak256, type Address, type Hex, toHex } from "viem";
import * as core from "@farcaster/core";
import { createDevchain } from "../../src/devchain/index.js";
import { devchainMigrations } from "../../src/devchain/migrations/index.js";
import { createLogger } from "../../src/http/index.js";
import { OP_MAINNET_REGISTRIES, onChainEventOfLog } from "../../src/interfaces/chainLogs.js";
import { OnChainEvent } from "../../src/protocol/generated/onchain_event.js";
import { migrate, openDatabase } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import { registryLog, type EmittedLog } from "../support/registryLogs.js";

const CUSTODY = "0x1111111111111111111111111111111111111111" as Address;
const RECOVERY = "0x2222222222222222222222222222222222222222" as Address;
const KEY_1 = `0x${"a1".repeat(32)}` as Hex;
const KEY_2 = `0x${"b2".repeat(32)}` as Hex;
const NOW = Math.floor(Date.now() / 1000);

/** The first devchain's blocks: one transaction per log, each with its own hash. */
const BLOCKS: EmittedLog[][] = [
  [registryLog.register(CUSTODY, 1, RECOVERY)],
  [registryLog.add(1, KEY_1, "0xabcd"), registryLog.add(1, KEY_2, "0x"), registryLog.rent(CUSTODY, 1, 5)],
  [registryLog.remove(1, KEY_1)],
];

const blockHash = (number: number) => keccak256(toHex(`block ${number}`));

for (const engine of await testEngines()) {
  describe(`a first-devchain database on ${engine.engine}`, { skip: engine.skip }, () => {
    const closers: (() => Promise<void>)[] = [];
    after(async () => {
      for (const close of closers.reverse()) await close();
    });

    it("is carried into the ledger with every account, event and log, and takes new writes after them", async () => {
      const created = await engine.create();
      closers.push(created.drop);
      const { "0001_chain": first } = devchainMigrations;
      const old = openDatabase(created.config);
      await migrate(old, "chain", { "0001_chain": first! });
      const db = old.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const events: OnChainEvent[] = [];
      let seq = 0;
      await db
        .insertInto("chain_blocks")
        .values({
          number: 0,
          hash: Buffer.from(blockHash(0).slice(2), "hex"),
          parent_hash: Buffer.alloc(32),
          timestamp: NOW - 30,
        })
        .execute();
      for (const [index, logs] of BLOCKS.entries()) {
        const number = index + 1;
        const block = { hash: blockHash(number), number, timestamp: NOW - 20 + number };
        await db
          .insertInto("chain_blocks")
          .values({
            number,
            hash: Buffer.from(block.hash.slice(2), "hex"),
            parent_hash: Buffer.from(blockHash(number - 1).slice(2), "hex"),
            timestamp: block.timestamp,
          })
          .execute();
        for (const [txIndex, log] of logs.entries()) {
          seq++;
          const transactionHash = keccak256(toHex(`tx ${seq}`));
          const event = onChainEventOfLog(
            {
              ...log,
              topics: log.topics as [Hex, ...Hex[]],
              blockHash: block.hash,
              blockNumber: BigInt(number),
              transactionHash,
              transactionIndex: txIndex,
              logIndex: txIndex,
              removed: false,
            },
            block,
            10,
            OP_MAINNET_REGISTRIES,
          )!;
          events.push(event);
          await db
            .insertInto("chain_transactions")
            .values({
              seq,
              hash: Buffer.from(transactionHash.slice(2), "hex"),
              kind: "x",
              fid: 1,
              block_number: number,
              tx_index: txIndex,
            })
            .execute();
          await db
            .insertInto("chain_events")
            .values({
              block_number: number,
              log_index: txIndex,
              tx_seq: seq,
              event: Buffer.from(OnChainEvent.encode(event).finish()),
            })
            .execute();
        }
      }
      await old.close();

      const devchain = await createDevchain({
        database: created.config,
        logger: createLogger("silent"),
        blockTimeSeconds: 0,
      });
      closers.push(() => devchain.close());
      const chain = devchain.chain;

      assert.deepEqual(await chain.eventsFromBlock(0, 1000), events);
      assert.deepEqual(await chain.getAccount(1), {
        fid: 1,
        custody: CUSTODY,
        recovery: RECOVERY,
        signers: [{ key: KEY_2, keyType: 1, metadataType: 1, metadata: "0x" }],
        storageUnits: 5,
      });
      assert.equal(await chain.fidOf(CUSTODY), 1);

      const url = await devchain.app.listen({ port: 0, host: "127.0.0.1" });
      const client = createPublicClient({ transport: http(url) });
      // Each log's JSON, made for the carried logs by migration 0004, as a log mined today has it.
      assert.deepEqual(
        (await client.getLogs({ fromBlock: 0n })).map((log) => ({
          block: Number(log.blockNumber),
          blockHash: log.blockHash,
          transactionHash: log.transactionHash,
          index: [log.transactionIndex, log.logIndex],
          topics: log.topics,
          data: log.data,
        })),
        BLOCKS.flatMap((logs, b) =>
          logs.map((log, i) => ({
            block: b + 1,
            blockHash: blockHash(b + 1),
            transactionHash: keccak256(toHex(`tx ${BLOCKS.slice(0, b).flat().length + i + 1}`)),
            index: [i, i],
            topics: log.topics,
            data: log.data,
          })),
        ),
      );
      const read = (functionName: string, args: unknown[]) =>
        client.readContract({
          address: core.KEY_REGISTRY_ADDRESS,
          abi: core.keyRegistryABI,
          functionName,
          args,
        } as never);
      assert.deepEqual(await read("keysOf", [1n, 1]), [KEY_2]);
      assert.deepEqual(await read("keysOf", [1n, 2]), [KEY_1]);
      assert.equal(
        await client.readContract({
          address: core.ID_REGISTRY_ADDRESS,
          abi: core.idRegistryABI,
          functionName: "idOf",
          args: [CUSTODY],
        }),
        1n,
      );
      // The state as of block 2: both keys still added.
      assert.deepEqual(
        await client.readContract({
          address: core.KEY_REGISTRY_ADDRESS,
          abi: core.keyRegistryABI,
          functionName: "keysOf",
          args: [1n, 1],
          blockNumber: 2n,
        }),
        [KEY_1, KEY_2],
      );

      const next = await chain.register({ custody: "0x3333333333333333333333333333333333333333" });
      assert.equal(next.fid, 2);
      assert.equal(await chain.latestBlockNumber(), 4);
    });
  });
}
