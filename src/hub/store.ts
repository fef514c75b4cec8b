/**
 * Read queries. Every list is one indexed range scan in tsHash order (or reverse), resuming after
 * the key its page token carries, reading one row more than the page to know whether another follows.
 */
import { type Kysely, sql } from "kysely";
import { MessageType } from "../protocol/generated/message.js";
import { OnChainEventType, SignerEventType } from "../protocol/generated/onchain_event.js";
import type { Database } from "../storage/index.js";
import type { StoreType } from "./keys.js";
import type { HubTables } from "./tables.js";

export interface PageRequest {
  pageSize: number;
  reverse: boolean;
  /** Key of the last item of the previous page. */
  after: Uint8Array | undefined;
}

export interface JsonRow {
  ts_hash: Uint8Array;
  json: string;
  json_profile: string;
  message: Uint8Array;
}

export interface Page<Item> {
  items: Item[];
  /** Key of the last item when more follow. */
  next: Uint8Array | undefined;
}

function cut<Row>(rows: Row[], pageSize: number, key: (row: Row) => Uint8Array): Page<Row> {
  if (rows.length <= pageSize) return { items: rows, next: undefined };
  const items = rows.slice(0, pageSize);
  return { items, next: key(items[items.length - 1]!) };
}

export interface MessageFilter {
  types?: readonly MessageType[];
  kind?: string;
}

type Db = Kysely<HubTables>;

const JSON_COLUMNS = ["ts_hash", "json", "json_profile", "message"] as const;

export async function messagesByFid(
  db: Db,
  fid: number,
  store: StoreType,
  filter: MessageFilter,
  page: PageRequest,
): Promise<Page<JsonRow>> {
  let query = db
    .selectFrom("hub_messages")
    .select(JSON_COLUMNS)
    .where("fid", "=", fid)
    .where("store", "=", store);
  if (filter.types !== undefined) query = query.where("type", "in", [...filter.types]);
  if (filter.kind !== undefined) query = query.where("kind", "=", filter.kind);
  if (page.after !== undefined) query = query.where("ts_hash", page.reverse ? "<" : ">", page.after);
  const rows = await query
    .orderBy("ts_hash", page.reverse ? "desc" : "asc")
    .limit(page.pageSize + 1)
    .execute();
  return cut(rows, page.pageSize, (row) => row.ts_hash);
}

export async function messagesByTarget(
  db: Db,
  store: StoreType,
  target: Uint8Array,
  kind: string | undefined,
  page: PageRequest,
): Promise<Page<JsonRow>> {
  let query = db
    .selectFrom("hub_messages")
    .select(JSON_COLUMNS)
    .where("store", "=", store)
    .where("target", "=", target);
  if (kind !== undefined) query = query.where("kind", "=", kind);
  if (page.after !== undefined) query = query.where("ts_hash", page.reverse ? "<" : ">", page.after);
  const rows = await query
    .orderBy("ts_hash", page.reverse ? "desc" : "asc")
    .limit(page.pageSize + 1)
    .execute();
  return cut(rows, page.pageSize, (row) => row.ts_hash);
}

export async function castsByMention(db: Db, mentionFid: number, page: PageRequest): Promise<Page<JsonRow>> {
  let query = db
    .selectFrom("hub_cast_mentions as m")
    .innerJoin("hub_messages as c", (join) =>
      join.onRef("c.fid", "=", "m.fid").on("c.store", "=", 1).onRef("c.ts_hash", "=", "m.ts_hash"),
    )
    .select(["c.ts_hash", "c.json", "c.json_profile", "c.message"])
    .where("m.mention_fid", "=", mentionFid);
  if (page.after !== undefined) query = query.where("m.ts_hash", page.reverse ? "<" : ">", page.after);
  const rows = await query
    .orderBy("m.ts_hash", page.reverse ? "desc" : "asc")
    .limit(page.pageSize + 1)
    .execute();
  return cut(rows, page.pageSize, (row) => row.ts_hash);
}

export async function messageBySetKey(
  db: Db,
  fid: number,
  store: StoreType,
  setKey: Uint8Array,
  type: MessageType,
): Promise<JsonRow | undefined> {
  return db
    .selectFrom("hub_messages")
    .select(JSON_COLUMNS)
    .where("fid", "=", fid)
    .where("store", "=", store)
    .where("set_key", "=", setKey)
    .where("type", "=", type)
    .executeTakeFirst();
}

function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value), false);
  return out;
}

function readU64(bytes: Uint8Array, offset = 0): number {
  return Number(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset, false));
}

/** Registered fids in ascending order; the page key is the fid as 8 big-endian bytes. */
export async function fids(db: Db, page: PageRequest): Promise<Page<number>> {
  let query = db.selectFrom("hub_fids").select("fid");
  if (page.after !== undefined) {
    if (page.after.length !== 8) return { items: [], next: undefined };
    query = query.where("fid", page.reverse ? "<" : ">", readU64(page.after));
  }
  const rows = await query
    .orderBy("fid", page.reverse ? "desc" : "asc")
    .limit(page.pageSize + 1)
    .execute();
  return cut(
    rows.map((row) => Number(row.fid)),
    page.pageSize,
    (fid) => u64(fid),
  );
}

export async function onChainEvents(
  db: Db,
  fid: number,
  type: OnChainEventType,
  limit: number,
): Promise<Uint8Array[]> {
  const rows = await db
    .selectFrom("hub_onchain_events")
    .select("event")
    .where("fid", "=", fid)
    .where("type", "=", type)
    .orderBy("block_number")
    .orderBy("log_index")
    .limit(limit)
    .execute();
  return rows.map((row) => row.event);
}

/** The add events of the fid's active signers (of one key, when given), in chain order. */
export async function activeSignerEvents(
  db: Db,
  fid: number,
  key: Uint8Array | undefined,
): Promise<Uint8Array[]> {
  let query = db
    .selectFrom("hub_signers as s")
    .innerJoin("hub_onchain_events as e", (join) =>
      join
        .onRef("e.fid", "=", "s.fid")
        .on("e.type", "=", OnChainEventType.EVENT_TYPE_SIGNER)
        .onRef("e.signer", "=", "s.key"),
    )
    .select(["e.event", "e.block_number", "e.log_index"])
    .where("s.fid", "=", fid)
    .where("s.event_type", "=", SignerEventType.ADD);
  if (key !== undefined) query = query.where("s.key", "=", key);
  const rows = await query.orderBy("e.block_number").orderBy("e.log_index").execute();
  // The join finds every event of an active key; its add is the one that made it active.
  return rows.map((row) => row.event);
}

export async function idRegisterEventByAddress(db: Db, address: Uint8Array): Promise<Uint8Array | undefined> {
  const row = await db
    .selectFrom("hub_onchain_events")
    .select("event")
    .where("address", "=", address)
    .orderBy("block_number", "desc")
    .orderBy("log_index", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.event;
}

export async function fnameProof(db: Db, name: string) {
  return db.selectFrom("hub_fname_proofs").selectAll().where("name", "=", name).executeTakeFirst();
}

export async function fnameProofsOf(db: Db, fid: number) {
  return db.selectFrom("hub_fname_proofs").selectAll().where("fid", "=", fid).orderBy("name").execute();
}

export async function usernameProofMessages(db: Db, fid: number): Promise<Uint8Array[]> {
  const rows = await db
    .selectFrom("hub_messages")
    .select("message")
    .where("fid", "=", fid)
    .where("store", "=", 6)
    .orderBy("ts_hash")
    .execute();
  return rows.map((row) => row.message);
}

export async function usernameProofMessageByName(
  db: Db,
  target: Uint8Array,
): Promise<Uint8Array | undefined> {
  const row = await db
    .selectFrom("hub_messages")
    .select("message")
    .where("store", "=", 6)
    .where("target", "=", target)
    .executeTakeFirst();
  return row?.message;
}

export async function storeCounts(db: Db, fid: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("hub_store_counts")
    .select(["store", "count"])
    .where("fid", "=", fid)
    .execute();
  return new Map(rows.map((row) => [Number(row.store), Number(row.count)]));
}

export async function earliestMessage(db: Db, fid: number, store: StoreType) {
  return db
    .selectFrom("hub_messages")
    .select(["timestamp", "hash"])
    .where("fid", "=", fid)
    .where("store", "=", store)
    .where("type", "!=", MessageType.LINK_COMPACT_STATE)
    .orderBy("ts_hash")
    .limit(1)
    .executeTakeFirst();
}

export async function reactorsByAuthor(db: Db, sinceProtocolSeconds: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("hub_messages")
    .select(["target_fid", sql<number | string>`count(distinct fid)`.as("reactors")])
    .where("store", "=", 3)
    .where("type", "=", MessageType.REACTION_ADD)
    .where("target_fid", "is not", null)
    .where("timestamp", ">=", sinceProtocolSeconds)
    .whereRef("fid", "!=", "target_fid")
    .groupBy("target_fid")
    .execute();
  return new Map(rows.map((row) => [Number(row.target_fid), Number(row.reactors)]));
}

export async function statistics(db: Db) {
  const messages = await db
    .selectFrom("hub_store_counts")
    .select(sql<number | string | null>`sum(count)`.as("n"))
    .executeTakeFirst();
  const onChain = await db
    .selectFrom("hub_onchain_events")
    .select(sql<number | string>`count(*)`.as("n"))
    .executeTakeFirst();
  const names = await db
    .selectFrom("hub_fname_proofs")
    .select(sql<number | string>`count(*)`.as("n"))
    .executeTakeFirst();
  return {
    numMessages: Number(messages?.n ?? 0),
    numFidEvents: Number(onChain?.n ?? 0),
    numFnameEvents: Number(names?.n ?? 0),
  };
}

/** Bytes the database takes on disk (approximately, as the reference reports it). */
export async function approximateSize(database: Database<HubTables>): Promise<number> {
  const query =
    database.engine === "sqlite"
      ? sql<{
          n: number | string;
        }>`select page_count * page_size as n from pragma_page_count(), pragma_page_size()`
      : sql<{ n: number | string }>`select pg_database_size(current_database()) as n`;
  const result = await query.execute(database.db);
  return Number(result.rows[0]?.n ?? 0);
}
