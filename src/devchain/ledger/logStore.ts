/** Logs: what each mined transaction emitted, in block order, and the filters eth_getLogs applies. */
import { type Address, getAddress, type Hex } from "viem";
import { toHex } from "../../protocol/hex.js";
import { sql } from "kysely";
import { type Database, runCompiled } from "../../storage/index.js";
import type { DevchainDb, DevchainTables } from "../tables.js";
import { renderLog } from "./logJson.js";

export interface StoredLog {
  blockNumber: number;
  logIndex: number;
  txSeq: number;
  address: Address;
  topics: Hex[];
  data: Hex;
}

/** A mined log with what every answer about it carries: its block's hash and time, its transaction. */
export interface MinedLog extends StoredLog {
  blockHash: Hex;
  /** Unix seconds. */
  blockTimestamp: number;
  transactionHash: Hex;
  transactionIndex: number;
}

/** eth_getLogs' filter: blocks inclusive; addresses any of; per topic position null (any) or any of. */
export interface LogFilter {
  fromBlock: number;
  toBlock: number;
  addresses?: readonly Address[];
  topics?: readonly (readonly Hex[] | null)[];
}

const TOPIC_COLUMNS = ["topic0", "topic1", "topic2", "topic3"] as const;

/** Stores a mined block's logs, each with its JSON (logJson.ts). */
export async function insertLogs(trx: DevchainDb, logs: readonly MinedLog[]): Promise<void> {
  if (logs.length === 0) return;
  await trx
    .insertInto("chain_logs")
    .values(
      logs.map((log) => ({
        block_number: log.blockNumber,
        log_index: log.logIndex,
        tx_seq: log.txSeq,
        address: log.address.toLowerCase(),
        topic0: log.topics[0] ? Buffer.from(log.topics[0].slice(2), "hex") : null,
        topic1: log.topics[1] ? Buffer.from(log.topics[1].slice(2), "hex") : null,
        topic2: log.topics[2] ? Buffer.from(log.topics[2].slice(2), "hex") : null,
        topic3: log.topics[3] ? Buffer.from(log.topics[3].slice(2), "hex") : null,
        data: Buffer.from(log.data.slice(2), "hex"),
        json: renderLog(log),
      })),
    )
    .execute();
}

/** The logs matching `filter`, in (block, log index) order, at most `limit`. */
function matching(db: DevchainDb, filter: LogFilter, limit: number) {
  let query = db
    .selectFrom("chain_logs")
    .where("chain_logs.block_number", ">=", filter.fromBlock)
    .where("chain_logs.block_number", "<=", filter.toBlock);
  if (filter.addresses && filter.addresses.length > 0)
    query = query.where(
      "chain_logs.address",
      "in",
      filter.addresses.map((a) => a.toLowerCase()),
    );
  for (const [position, wanted] of (filter.topics ?? []).entries()) {
    if (wanted === null || position >= TOPIC_COLUMNS.length) continue;
    query = query.where(
      `chain_logs.${TOPIC_COLUMNS[position]!}`,
      "in",
      wanted.map((topic) => Buffer.from(topic.slice(2), "hex")),
    );
  }
  return query.orderBy("chain_logs.block_number").orderBy("chain_logs.log_index").limit(limit);
}

/** Logs matching `filter`, each with its block and transaction read in the same statement. */
export async function logsMatching(db: DevchainDb, filter: LogFilter, limit: number): Promise<MinedLog[]> {
  const rows = await matching(db, filter, limit)
    .innerJoin("chain_blocks", "chain_blocks.number", "chain_logs.block_number")
    .innerJoin("chain_txs", "chain_txs.seq", "chain_logs.tx_seq")
    .select([
      "chain_logs.block_number",
      "chain_logs.log_index",
      "chain_logs.tx_seq",
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
  return rows.map((row) => ({
    ...storedLog(row),
    blockHash: toHex(new Uint8Array(row.block_hash)),
    blockTimestamp: Number(row.block_timestamp),
    transactionHash: toHex(new Uint8Array(row.tx_hash)),
    transactionIndex: Number(row.tx_index),
  }));
}

/**
 * eth_getLogs' answer to `filter`: how many logs match (counting at most `limit`) and their stored
 * JSON joined into one array's text. The database joins them, in log order: a JS string a row
 * cost as much as the rest of the query.
 */
export async function logJsonMatching(
  database: Database<DevchainTables>,
  filter: LogFilter,
  limit: number,
): Promise<{ count: number; json: string }> {
  // Compiled once per form of filter (src/storage/compiled.ts): how many addresses, and which topic
  // positions are constrained; the parameters in the order the query takes them.
  const addresses = (filter.addresses ?? []).map((a) => a.toLowerCase());
  const topics = (filter.topics ?? []).slice(0, TOPIC_COLUMNS.length);
  const shape = `devchain log json a${addresses.length} t${topics.map((t) => (t === null ? "-" : t.length)).join(",")}`;
  const parameters: unknown[] = [filter.fromBlock, filter.toBlock, ...addresses];
  for (const wanted of topics)
    if (wanted !== null) parameters.push(...wanted.map((topic) => Buffer.from(topic.slice(2), "hex")));
  parameters.push(limit);
  const join =
    database.engine === "sqlite"
      ? sql<string | null>`group_concat(m.json, ',' order by m.block_number, m.log_index)`
      : sql<string | null>`string_agg(m.json, ',' order by m.block_number, m.log_index)`;
  const [row] = await runCompiled(
    database,
    shape,
    () =>
      database.db
        .selectFrom(
          matching(database.db, filter, limit)
            .select(["chain_logs.block_number", "chain_logs.log_index", "chain_logs.json"])
            .as("m"),
        )
        .select((eb) => [eb.fn.countAll<number | string>().as("count"), join.as("joined")]),
    parameters,
  );
  return { count: Number(row?.count ?? 0), json: `[${row?.joined ?? ""}]` };
}

/** The JSON of a mined transaction's logs (its receipt's), in log order. */
export async function logJsonOfTransaction(db: DevchainDb, txSeq: number): Promise<string[]> {
  const rows = await db
    .selectFrom("chain_logs")
    .select("json")
    .where("tx_seq", "=", txSeq)
    .orderBy("log_index")
    .execute();
  return rows.map((row) => row.json);
}

export async function logsOfTransaction(db: DevchainDb, txSeq: number): Promise<StoredLog[]> {
  const rows = await db
    .selectFrom("chain_logs")
    .selectAll()
    .where("tx_seq", "=", txSeq)
    .orderBy("log_index")
    .execute();
  return rows.map(storedLog);
}

function storedLog(row: {
  block_number: number;
  log_index: number;
  tx_seq: number;
  address: string;
  topic0: Uint8Array | null;
  topic1: Uint8Array | null;
  topic2: Uint8Array | null;
  topic3: Uint8Array | null;
  data: Uint8Array;
}): StoredLog {
  const topics = [row.topic0, row.topic1, row.topic2, row.topic3]
    .filter((topic): topic is Uint8Array => topic !== null)
    .map((topic) => toHex(new Uint8Array(topic)));
  return {
    blockNumber: Number(row.block_number),
    logIndex: Number(row.log_index),
    txSeq: Number(row.tx_seq),
    address: getAddress(row.address),
    topics,
    data: toHex(new Uint8Array(row.data)),
  };
}
