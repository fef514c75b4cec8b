/**
 * Read queries. Every list is one indexed range scan in tsHash order (or reverse), resuming after
 * the key its page token carries.
 */
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { MessageType } from "../protocol/generated/message.js";
import { OnChainEventType, SignerEventType } from "../protocol/generated/onchain_event.js";
import { compiled, type Database, runCompiled } from "../storage/index.js";
import { StoreType, u64 } from "./keys.js";
import type { HubTables } from "./tables.js";

export interface PageRequest {
  pageSize: number;
  reverse: boolean;
  /** Key of the last item of the previous page. */
  after: Uint8Array | undefined;
}

export interface JsonRow {
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

const JSON_COLUMNS = ["json", "json_profile", "message"] as const;

type ListBuilder = SelectQueryBuilder<HubTables & { m: HubTables["hub_messages"] }, "m", object>;

/**
 * A message list: the rows of `query(after)`, after `after` in the list's order. `shape` names the
 * form of its SQL and `parameters` are the values its conditions add, in order, before `after`.
 */
interface MessageList {
  shape: string;
  parameters: unknown[];
  query(after: Uint8Array | undefined, reverse: boolean): ListBuilder;
}

/** A page of messages as JSON: the messages' JSON joined with commas, in list order. */
export interface JsonPage {
  joined: string;
  next: Uint8Array | undefined;
}

/**
 * Pages a message list. The database joins the stored JSON of the page itself (the rows come out
 * of the subquery in its order), on a reader thread where the database has them: a page costs one
 * string, not one object per message. A string rather than bytes because a 64 KB buffer per page
 * is memory outside the JavaScript heap, whose churn forces full garbage collections, pauses that
 * show in the slowest percentiles. Messages rendered under another naming profile are rendered
 * again, one by one.
 */
async function jsonPage(ctx: ListContext, list: MessageList, page: PageRequest): Promise<JsonPage> {
  const { database } = ctx;
  const direction = page.reverse ? "desc" : "asc";
  const postgres = database.engine === "postgres";
  const seekParameters = page.after === undefined ? [] : [page.after];
  const shape = `${list.shape}|${page.after === undefined ? "" : "after"}|${direction}`;
  const [row] = await database.read(
    compiled(
      database.db,
      `page:${shape}`,
      () => {
        const inner = list
          .query(page.after, page.reverse)
          .select(["m.ts_hash as ts_hash", "m.json as json", "m.json_profile as json_profile"])
          .orderBy("m.ts_hash", direction)
          .limit(page.pageSize);
        const joined = postgres
          ? sql<string | null>`string_agg(json, ',' order by ts_hash ${sql.raw(direction)})`
          : sql<string | null>`group_concat(json, ',')`;
        const last = postgres
          ? sql<Uint8Array | null>`(array_agg(ts_hash order by ts_hash ${sql.raw(page.reverse ? "asc" : "desc")}))[1]`
          : sql<Uint8Array | null>`${sql.raw(page.reverse ? "min" : "max")}(ts_hash)`;
        return database.db
          .selectFrom(inner.as("page"))
          .select([
            joined.as("joined"),
            sql<number | string>`count(*)`.as("n"),
            last.as("last"),
            sql<string | null>`min(json_profile)`.as("low"),
            sql<string | null>`max(json_profile)`.as("high"),
          ]);
      },
      [...list.parameters, ...seekParameters, page.pageSize],
    ),
  );
  const count = Number(row?.n ?? 0);
  if (row === undefined || count === 0) return { joined: "", next: undefined };
  let joined = row.joined ?? "";
  if (row.low !== ctx.profile || row.high !== ctx.profile) {
    const rows = await list
      .query(page.after, page.reverse)
      .select(["m.json as json", "m.json_profile as json_profile", "m.message as message"])
      .orderBy("m.ts_hash", direction)
      .limit(page.pageSize)
      .execute();
    joined = rows.map((r) => (r.json_profile === ctx.profile ? r.json : ctx.render(r.message))).join(",");
  }
  let next: Uint8Array | undefined;
  if (count === page.pageSize && row.last !== null) {
    const last = row.last;
    const more = await runCompiled(
      database.db,
      `more:${list.shape}|${direction}`,
      () => list.query(last, page.reverse).select("m.ts_hash").limit(1),
      [...list.parameters, last, 1],
    );
    if (more.length > 0) next = last;
  }
  return { joined, next };
}

export interface ListContext {
  database: Database<HubTables>;
  profile: string;
  render: (message: Uint8Array) => string;
}

function seek(reverse: boolean) {
  return reverse ? ("<" as const) : (">" as const);
}

export function messagesByFid(
  ctx: ListContext,
  fid: number,
  store: StoreType,
  filter: MessageFilter,
  page: PageRequest,
): Promise<JsonPage> {
  const types = filter.types ?? [];
  const parameters: unknown[] = [fid, store, ...types];
  if (filter.kind !== undefined) parameters.push(filter.kind);
  return jsonPage(
    ctx,
    {
      shape: `fid|${types.length}|${filter.kind === undefined ? "" : "kind"}`,
      parameters,
      query: (after, reverse) => {
        let query = ctx.database.db
          .selectFrom("hub_messages as m")
          .where("m.fid", "=", fid)
          .where("m.store", "=", store);
        if (types.length > 0) query = query.where("m.type", "in", [...types]);
        if (filter.kind !== undefined) query = query.where("m.kind", "=", filter.kind);
        if (after !== undefined) query = query.where("m.ts_hash", seek(reverse), after);
        return query;
      },
    },
    page,
  );
}

export function messagesByTarget(
  ctx: ListContext,
  store: StoreType,
  target: Uint8Array,
  kind: string | undefined,
  page: PageRequest,
): Promise<JsonPage> {
  return jsonPage(
    ctx,
    {
      shape: `target|${kind === undefined ? "" : "kind"}`,
      parameters: kind === undefined ? [store, target] : [store, target, kind],
      query: (after, reverse) => {
        let query = ctx.database.db
          .selectFrom("hub_messages as m")
          .where("m.store", "=", store)
          .where("m.target", "=", target);
        if (kind !== undefined) query = query.where("m.kind", "=", kind);
        if (after !== undefined) query = query.where("m.ts_hash", seek(reverse), after);
        return query;
      },
    },
    page,
  );
}

export function castsByMention(ctx: ListContext, mentionFid: number, page: PageRequest): Promise<JsonPage> {
  return jsonPage(
    ctx,
    {
      shape: "mention",
      parameters: [StoreType.CASTS, mentionFid],
      query: (after, reverse) => {
        let query = ctx.database.db
          .selectFrom("hub_cast_mentions as c")
          .innerJoin("hub_messages as m", (join) =>
            join
              .onRef("m.fid", "=", "c.fid")
              .on("m.store", "=", StoreType.CASTS)
              .onRef("m.ts_hash", "=", "c.ts_hash"),
          )
          .where("c.mention_fid", "=", mentionFid);
        if (after !== undefined) query = query.where("c.ts_hash", seek(reverse), after);
        return query as unknown as ListBuilder;
      },
    },
    page,
  );
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
    rows.map((row) => row.fid),
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
    .where("store", "=", StoreType.USERNAME_PROOFS)
    .orderBy("ts_hash")
    .execute();
  return rows.map((row) => row.message);
}

/** The USERNAME_PROOF message (ENS and other name-service names) holding a name, and its fid. */
export async function usernameProofByName(db: Db, target: Uint8Array) {
  return db
    .selectFrom("hub_messages")
    .select(["fid", "message"])
    .where("store", "=", StoreType.USERNAME_PROOFS)
    .where("target", "=", target)
    .executeTakeFirst();
}

export async function storeCounts(db: Db, fid: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("hub_store_counts")
    .select(["store", "count"])
    .where("fid", "=", fid)
    .execute();
  return new Map(rows.map((row) => [row.store, row.count]));
}

/** The oldest message of a store that counts against its limit (the next to be pruned). */
export async function earliestMessage(db: Db, fid: number, store: StoreType) {
  return db
    .selectFrom("hub_messages")
    .select(["ts_hash", "timestamp", "hash"])
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
    .where("store", "=", StoreType.REACTIONS)
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
