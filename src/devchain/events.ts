/**
 * The event log: each mined transaction's on-chain event, kept as OnChainEvent bytes at its
 * (block, log index), and read back in whole blocks.
 */
import { OnChainEvent } from "../protocol/generated/onchain_event.js";
import { eventsQuery } from "../interfaces/chain.js";
import type { DevchainDb } from "./tables.js";

/** What a mined transaction's event says besides where it was mined: its type, registry version and body. */
export type EventBody = Pick<
  OnChainEvent,
  "type" | "version" | "idRegisterEventBody" | "signerEventBody" | "storageRentEventBody"
>;

/** Marks the state rows of transaction `txSeq` mined in `block` and returns the event it emits. */
export type MineTransaction = (
  trx: DevchainDb,
  txSeq: number,
  block: { number: number; timestamp: number },
) => Promise<EventBody>;

export interface EventsPage {
  events: OnChainEvent[];
  /** Where the next page starts. */
  nextFromBlock: number;
  /** True when the page was cut short by the limit. */
  hasMore: boolean;
}

interface EventRow {
  blockNumber: number;
  event: Uint8Array;
}

function toEventRow(row: { block_number: number; event: Uint8Array }): EventRow {
  return { blockNumber: Number(row.block_number), event: new Uint8Array(row.event) };
}

function decodeEvents(rows: EventRow[]): OnChainEvent[] {
  return rows.map((row) => OnChainEvent.decode(row.event));
}

export async function insertEvent(
  trx: DevchainDb,
  row: { blockNumber: number; logIndex: number; txSeq: number; event: OnChainEvent },
): Promise<void> {
  await trx
    .insertInto("chain_events")
    .values({
      block_number: row.blockNumber,
      log_index: row.logIndex,
      tx_seq: row.txSeq,
      event: OnChainEvent.encode(row.event).finish(),
    })
    .execute();
}

async function eventsFrom(
  db: DevchainDb,
  fromBlock: number,
  toBlock: number,
  limit: number,
): Promise<EventRow[]> {
  const rows = await db
    .selectFrom("chain_events")
    .select(["block_number", "event"])
    .where("block_number", ">=", fromBlock)
    .where("block_number", "<=", toBlock)
    .orderBy("block_number")
    .orderBy("log_index")
    .limit(limit)
    .execute();
  return rows.map(toEventRow);
}

async function eventsOfBlock(db: DevchainDb, blockNumber: number): Promise<EventRow[]> {
  const rows = await db
    .selectFrom("chain_events")
    .select(["block_number", "event"])
    .where("block_number", "=", blockNumber)
    .orderBy("log_index")
    .execute();
  return rows.map(toEventRow);
}

export async function eventsOfTransaction(db: DevchainDb, txSeq: number): Promise<OnChainEvent[]> {
  const rows = await db
    .selectFrom("chain_events")
    .select(["block_number", "event"])
    .where("tx_seq", "=", txSeq)
    .orderBy("log_index")
    .execute();
  return decodeEvents(rows.map(toEventRow));
}

/**
 * Whole blocks of events from `fromBlock` up to the `latest` mined block, at most `limit` events
 * unless one block alone has more. Blocks are committed with their events, so every block up to
 * `latest` is complete.
 */
export async function eventsPage(
  db: DevchainDb,
  fromBlock: number,
  limit: number,
  latest: number,
): Promise<EventsPage> {
  const { fromBlock: from, limit: size } = eventsQuery(fromBlock, limit);
  const rows = await eventsFrom(db, from, latest, size + 1);
  if (rows.length <= size) {
    return { events: decodeEvents(rows), nextFromBlock: Math.max(from, latest + 1), hasMore: false };
  }
  const cut = rows[size]!.blockNumber;
  let page = rows.slice(0, size).filter((row) => row.blockNumber < cut);
  if (page.length === 0) page = await eventsOfBlock(db, cut);
  return {
    events: decodeEvents(page),
    nextFromBlock: page[page.length - 1]!.blockNumber + 1,
    hasMore: true,
  };
}
