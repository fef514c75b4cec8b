import type { Kysely } from "kysely";
import { getAddress, type Hex } from "viem";
import { bytesType, type Migration } from "../../storage/index.js";
import { logsBloom } from "../ledger/bloom.js";

/**
 * What the JSON-RPC serves of logs, made once when a block is mined: each log keeps the JSON nodes
 * answer for it (eth_getLogs, receipts), as the hub keeps each message's JSON, so that answering a
 * query joins stored text; each block keeps the bloom of its logs (the EVM's, ledger/bloom.ts). The
 * logs and blocks mined before this migration get theirs here, the JSON spelled as
 * src/devchain/ledger/logJson.ts spelled it when this migration was written.
 */
const hex = (bytes: Uint8Array | null): Hex | undefined =>
  bytes === null ? undefined : `0x${Buffer.from(bytes).toString("hex")}`;
// PostgreSQL hands bigint columns over as strings.
const quantity = (value: number | string) => `0x${Number(value).toString(16)}`;

interface Row {
  block_number: number | string;
  log_index: number;
  address: string;
  topic0: Uint8Array | null;
  topic1: Uint8Array | null;
  topic2: Uint8Array | null;
  topic3: Uint8Array | null;
  data: Uint8Array;
  block_hash: Uint8Array;
  block_timestamp: number | string;
  tx_hash: Uint8Array;
  tx_index: number;
}

export const servedLogs: Migration = {
  async up(db, engine) {
    await db.schema
      .alterTable("chain_logs")
      .addColumn("json", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await db.schema.alterTable("chain_blocks").addColumn("logs_bloom", bytesType(engine)).execute();
    const logs = db as Kysely<{
      chain_logs: Row & { tx_seq: number; json: string };
      chain_blocks: { number: number; hash: Uint8Array; timestamp: number; logs_bloom: Uint8Array | null };
      chain_txs: { seq: number; hash: Uint8Array; tx_index: number };
    }>;
    const rows = await logs
      .selectFrom("chain_logs")
      .innerJoin("chain_blocks", "chain_blocks.number", "chain_logs.block_number")
      .innerJoin("chain_txs", "chain_txs.seq", "chain_logs.tx_seq")
      .select([
        "chain_logs.block_number",
        "chain_logs.log_index",
        "chain_logs.address",
        "chain_logs.topic0",
        "chain_logs.topic1",
        "chain_logs.topic2",
        "chain_logs.topic3",
        "chain_logs.data",
        "chain_blocks.hash as block_hash",
        "chain_blocks.timestamp as block_timestamp",
        "chain_txs.hash as tx_hash",
        "chain_txs.tx_index as tx_index",
      ])
      .execute();
    for (const row of rows) {
      const json = JSON.stringify({
        address: getAddress(row.address),
        topics: [row.topic0, row.topic1, row.topic2, row.topic3].map(hex).filter((t) => t !== undefined),
        data: hex(row.data),
        blockNumber: quantity(row.block_number),
        blockHash: hex(row.block_hash),
        blockTimestamp: quantity(row.block_timestamp),
        transactionHash: hex(row.tx_hash),
        transactionIndex: quantity(row.tx_index),
        logIndex: quantity(row.log_index),
        removed: false,
      });
      await logs
        .updateTable("chain_logs")
        .set({ json })
        .where("block_number", "=", row.block_number)
        .where("log_index", "=", row.log_index)
        .execute();
    }
    const blockLogs = new Map<number, { address: Hex; topics: Hex[] }[]>();
    for (const row of rows) {
      const number = Number(row.block_number);
      const topics = [row.topic0, row.topic1, row.topic2, row.topic3].map(hex).filter((t) => t !== undefined);
      const inBlock = blockLogs.get(number) ?? [];
      if (inBlock.length === 0) blockLogs.set(number, inBlock);
      inBlock.push({ address: row.address as Hex, topics });
    }
    for (const block of await logs.selectFrom("chain_blocks").select("number").execute())
      await logs
        .updateTable("chain_blocks")
        .set({ logs_bloom: Buffer.from(logsBloom(blockLogs.get(Number(block.number)) ?? [])) })
        .where("number", "=", block.number)
        .execute();
  },
};
