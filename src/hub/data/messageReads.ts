/**
 * Reads of stored messages. Every list is one indexed range scan in tsHash order (or reverse), resuming after
 * the key its page token carries.
 */
import { type Expression, type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { MessageType } from "../../protocol/generated/message.js";
import { compiled, type Database, type PooledText } from "../../storage/index.js";
import { StoreType } from "./keys.js";
import type { KeyPageRequest } from "./paging.js";
import type { HubTables } from "./tables.js";

export interface JsonRow {
  json: string;
  json_profile: string;
  message: Uint8Array;
}

export interface MessageFilter {
  types?: readonly MessageType[];
  kind?: string;
  /** Protocol timestamps, both inclusive. */
  since?: number;
  until?: number;
}

type Db = Kysely<HubTables>;

const JSON_COLUMNS = ["json", "json_profile", "message"] as const;

type ListBuilder = SelectQueryBuilder<HubTables & { m: HubTables["hub_messages"] }, "m", object>;

/**
 * A message list: the rows of `query(after)`, after `after` in the list's order. `shape` names the
 * form of its SQL and `parameters` are the values its conditions add, in order, before `after`.
 */
export interface MessageList {
  shape: string;
  parameters: unknown[];
  query(after: Uint8Array | Expression<Uint8Array> | undefined, reverse: boolean): ListBuilder;
}

/**
 * A page of messages as JSON: the messages' JSON joined with commas, in list order; from a reader
 * thread, in a slot of memory shared with it (released once sent).
 */
export interface JsonPage {
  joined: string | PooledText;
  next: Uint8Array | undefined;
}

/**
 * Pages a message list. The database joins the stored JSON of the page itself (the rows come out
 * of the subquery in its order), on a reader thread where the database has them: a page costs one
 * text, not one object per message, and the reader thread writes it into memory shared with the
 * thread that serves HTTP (storage/pooledText.ts), not onto that thread's heap. Messages
 * rendered under another naming profile are rendered again, one by one.
 */
async function jsonPage(ctx: ListContext, list: MessageList, page: KeyPageRequest): Promise<JsonPage> {
  const { database } = ctx;
  const direction = page.reverse ? "desc" : "asc";
  const postgres = database.engine === "postgres";
  const [row] = await database.readLongText(
    pageStatement(
      database,
      "page",
      list,
      page,
      () =>
        list
          .query(page.after, page.reverse)
          .select(["m.ts_hash as ts_hash", "m.json as json", "m.json_profile as json_profile"])
          .orderBy("m.ts_hash", direction)
          .limit(page.pageSize),
      (rows) =>
        rows.select([
          (postgres
            ? sql<string | null>`string_agg(json, ',' order by ts_hash ${sql.raw(direction)})`
            : sql<string | null>`group_concat(json, ',')`
          ).as("joined"),
          sql<string | null>`min(json_profile)`.as("low"),
          sql<string | null>`max(json_profile)`.as("high"),
        ]),
    ),
    "joined",
  );
  const count = Number(row?.n ?? 0);
  if (row === undefined || count === 0) return { joined: "", next: undefined };
  let joined: string | PooledText = row.joined ?? "";
  if (row.low !== ctx.profile || row.high !== ctx.profile) {
    if (typeof joined !== "string") joined.release();
    const rows = await list
      .query(page.after, page.reverse)
      .select(["m.json as json", "m.json_profile as json_profile", "m.message as message"])
      .orderBy("m.ts_hash", direction)
      .limit(page.pageSize)
      .execute();
    joined = rows.map((r) => (r.json_profile === ctx.profile ? r.json : ctx.render(r.message))).join(",");
  }
  return { joined, next: nextKey(page, row) };
}

/** SQL of the last key of a page subquery (aliased `page`) in its list's order. */
function lastKey(postgres: boolean, reverse: boolean) {
  return postgres
    ? sql<Uint8Array | null>`(array_agg(ts_hash order by ts_hash ${sql.raw(reverse ? "asc" : "desc")}))[1]`
    : sql<Uint8Array | null>`${sql.raw(reverse ? "min" : "max")}(ts_hash)`;
}

interface PageSummary {
  n: number | string;
  last: Uint8Array | null;
}

type PageRows<Row> = SelectQueryBuilder<HubTables & { page: Row }, "page", PageSummary>;

/**
 * One statement for a page of `list`, compiled once per form: the page's rows (`rows`, in list
 * order) summarised into one row, with their count `n`, the `last` key, what `summarise` selects
 * besides, and `more`: whether the list goes on after that key. `more` is asked in the page's own
 * statement, so that it runs where the page runs (a reader thread, where the database has them)
 * instead of as a second query on the calling thread's connection, whose cache a big store's random
 * pages miss.
 */
export function pageStatement<Row, Summary extends PageSummary>(
  database: Database<HubTables>,
  name: string,
  list: MessageList,
  page: KeyPageRequest,
  rows: () => SelectQueryBuilder<HubTables & { m: HubTables["hub_messages"] }, "m", Row>,
  summarise: (page: PageRows<Row>) => SelectQueryBuilder<HubTables & { page: Row }, "page", Summary>,
) {
  const postgres = database.engine === "postgres";
  const db = database.db;
  const seek = page.after === undefined ? [] : [page.after];
  return compiled(
    db,
    `${name}:${list.shape}|${page.after === undefined ? "" : "after"}|${page.reverse ? "desc" : "asc"}`,
    () => {
      const summary = summarise(
        db
          .selectFrom(rows().as("page"))
          .select([sql<number | string>`count(*)`.as("n"), lastKey(postgres, page.reverse).as("last")]),
      );
      return db
        .selectFrom(summary.as("p"))
        .selectAll("p")
        .select((eb) =>
          eb
            .exists(list.query(sql.ref<Uint8Array>("p.last"), page.reverse).select(sql.lit(1).as("one")))
            .as("more"),
        );
    },
    // The list's own parameters for `more` (selected before the page), then the page's.
    [...list.parameters, ...list.parameters, ...seek, page.pageSize],
  );
}

/** The key to resume after a page, when more follow it. */
export function nextKey(page: KeyPageRequest, row: PageSummary & { more: unknown }): Uint8Array | undefined {
  const more = row.more === true || Number(row.more) === 1;
  return Number(row.n) >= page.pageSize && row.last !== null && more ? row.last : undefined;
}

export interface ListContext {
  database: Database<HubTables>;
  profile: string;
  render: (message: Uint8Array) => string;
}

function seek(reverse: boolean) {
  return reverse ? ("<" as const) : (">" as const);
}

/** A fid's messages of one store, filtered. */
export function fidList(db: Db, fid: number, store: StoreType, filter: MessageFilter): MessageList {
  const types = filter.types ?? [];
  const { kind, since, until } = filter;
  const parameters: unknown[] = [fid, store, ...types];
  for (const value of [kind, since, until]) if (value !== undefined) parameters.push(value);
  const flags = `${kind === undefined ? "" : "k"}${since === undefined ? "" : "s"}${until === undefined ? "" : "u"}`;
  return {
    shape: `fid|${types.length}|${flags}`,
    parameters,
    query: (after, reverse) => {
      let query = db.selectFrom("hub_messages as m").where("m.fid", "=", fid).where("m.store", "=", store);
      if (types.length > 0) query = query.where("m.type", "in", [...types]);
      if (kind !== undefined) query = query.where("m.kind", "=", kind);
      if (since !== undefined) query = query.where("m.timestamp", ">=", since);
      if (until !== undefined) query = query.where("m.timestamp", "<=", until);
      if (after !== undefined) query = query.where("m.ts_hash", seek(reverse), after);
      return query;
    },
  };
}

export function messagesByFid(
  ctx: ListContext,
  fid: number,
  store: StoreType,
  filter: MessageFilter,
  page: KeyPageRequest,
): Promise<JsonPage> {
  return jsonPage(ctx, fidList(ctx.database.db, fid, store, filter), page);
}

/** The messages of one store at a target (a cast, URL or fid key), of one kind or all. */
export function targetList(
  db: Db,
  store: StoreType,
  target: Uint8Array,
  kind: string | undefined,
): MessageList {
  return {
    shape: `target|${kind === undefined ? "" : "kind"}`,
    parameters: kind === undefined ? [store, target] : [store, target, kind],
    query: (after, reverse) => {
      let query = db
        .selectFrom("hub_messages as m")
        .where("m.store", "=", store)
        .where("m.target", "=", target);
      if (kind !== undefined) query = query.where("m.kind", "=", kind);
      if (after !== undefined) query = query.where("m.ts_hash", seek(reverse), after);
      return query;
    },
  };
}

export function messagesByTarget(
  ctx: ListContext,
  store: StoreType,
  target: Uint8Array,
  kind: string | undefined,
  page: KeyPageRequest,
): Promise<JsonPage> {
  return jsonPage(ctx, targetList(ctx.database.db, store, target, kind), page);
}

/** The casts that mention a fid. */
export function mentionList(db: Db, mentionFid: number): MessageList {
  return {
    shape: "mention",
    parameters: [StoreType.CASTS, mentionFid],
    query: (after, reverse) => {
      let query = db
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
  };
}

export function castsByMention(
  ctx: ListContext,
  mentionFid: number,
  page: KeyPageRequest,
): Promise<JsonPage> {
  return jsonPage(ctx, mentionList(ctx.database.db, mentionFid), page);
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

/**
 * The stored cast whose hash is the lowest in [low, high] (both 20 bytes, inclusive, so that a hash
 * prefix is a range): a cast's set key is its hash, and the set-key index leads with (store, set
 * key), so this is one seek of it, stepping over the rare remove whose key falls in the range.
 */
export async function castByHashRange(
  db: Db,
  low: Uint8Array,
  high: Uint8Array,
): Promise<JsonRow | undefined> {
  return db
    .selectFrom("hub_messages")
    .select(JSON_COLUMNS)
    .where("store", "=", StoreType.CASTS)
    .where("set_key", ">=", low)
    .where("set_key", "<=", high)
    .where("type", "=", MessageType.CAST_ADD)
    .orderBy("set_key")
    .limit(1)
    .executeTakeFirst();
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
