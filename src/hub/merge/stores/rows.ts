/**
 * Rows of hub_messages as the merges see them, and the two writes every store shares: inserting a
 * message with its index columns and mentions, deleting one with them. Counts follow both.
 */
import { decodeMessage, type MessageWithData } from "../../../protocol/message.js";
import type { Message } from "../../../protocol/generated/message.js";
import { adjustCount, type MergeContext } from "../context.js";
import { withBytes } from "../../data/events.js";
import type { StoreType } from "../../data/keys.js";
import { compiledOnce } from "../../../storage/index.js";
import type { HubTables } from "../../data/tables.js";

export interface IndexColumns {
  kind: string | null;
  target: Uint8Array | null;
  targetFid: number | null;
  mentions: readonly number[];
}

export const NO_INDEX: IndexColumns = { kind: null, target: null, targetFid: null, mentions: [] };

/** A message that passed validation, with the bytes it arrived in. */
export interface Incoming {
  /** `data` is the decoding of the hashed bytes. */
  message: MessageWithData;
  bytes: Uint8Array;
  hash: Uint8Array;
  tsHash: Uint8Array;
  /** The message's JSON under the hub's naming profile, rendered once. */
  json: string;
}

export const MERGE_COLUMNS = [
  "fid",
  "store",
  "ts_hash",
  "set_key",
  "type",
  "timestamp",
  "target",
  "message",
] as const;

/**
 * Whether a message counts against its store's limit: set members do, what a store keeps beside its
 * set (StoreSpec.extraTypes) does not.
 */
export type Counting = "counted" | "uncounted";

/** What a merge reads of a stored message (the storage layer returns int8 columns as numbers). */
export type MergeRow = Pick<HubTables["hub_messages"], (typeof MERGE_COLUMNS)[number]>;

const bySetKey = compiledOnce<HubTables, MergeRow>("hub.bySetKey", (db, [fid, store, key]) =>
  db
    .selectFrom("hub_messages")
    .select(MERGE_COLUMNS)
    .where("fid", "=", fid as number)
    .where("store", "=", store as number)
    .where("set_key", "=", key as Uint8Array),
);

export async function findBySetKey(
  ctx: MergeContext,
  fid: number,
  store: StoreType,
  key: Uint8Array,
): Promise<MergeRow | undefined> {
  const [row] = await bySetKey(ctx.trx, [fid, store, key]);
  return row;
}

const INSERT_COLUMNS = [
  "fid",
  "store",
  "ts_hash",
  "set_key",
  "type",
  "timestamp",
  "hash",
  "signer",
  "kind",
  "target",
  "target_fid",
  "message",
  "json",
  "json_profile",
] as const;

const insertRow = compiledOnce<HubTables, unknown>("hub.insertMessage", (db, values) =>
  db
    .insertInto("hub_messages")
    .values(Object.fromEntries(INSERT_COLUMNS.map((column, i) => [column, values[i]])) as never),
);

/** Adds of every fid indexed under `target` in a store. */
export async function findByTarget(
  ctx: MergeContext,
  store: StoreType,
  target: Uint8Array,
): Promise<MergeRow[]> {
  return ctx.trx
    .selectFrom("hub_messages")
    .select(MERGE_COLUMNS)
    .where("store", "=", store)
    .where("target", "=", target)
    .execute();
}

export async function insertMessage(
  ctx: MergeContext,
  store: StoreType,
  incoming: Incoming,
  setKey: Uint8Array,
  index: IndexColumns,
  counting: Counting,
): Promise<void> {
  const data = incoming.message.data;
  // In INSERT_COLUMNS order.
  await insertRow(ctx.trx, [
    data.fid,
    store,
    incoming.tsHash,
    setKey,
    data.type,
    data.timestamp,
    incoming.hash,
    incoming.message.signer,
    index.kind,
    index.target,
    index.targetFid,
    incoming.bytes,
    incoming.json,
    ctx.profile.name,
  ]);
  const mentions = [...new Set(index.mentions)];
  if (mentions.length > 0) {
    await ctx.trx
      .insertInto("hub_cast_mentions")
      .values(mentions.map((mention) => ({ mention_fid: mention, ts_hash: incoming.tsHash, fid: data.fid })))
      .execute();
  }
  if (counting === "counted") await adjustCount(ctx, data.fid, store, 1);
}

/** Deletes a stored message and what indexes it; returns it decoded, for the event that reports it. */
export async function deleteMessage(ctx: MergeContext, row: MergeRow, counting: Counting): Promise<Message> {
  const message = withBytes(decodeMessage(row.message).message, row.message);
  await ctx.trx
    .deleteFrom("hub_messages")
    .where("fid", "=", row.fid)
    .where("store", "=", row.store)
    .where("ts_hash", "=", row.ts_hash)
    .execute();
  const mentions = message.data?.castAddBody?.mentions ?? [];
  if (mentions.length > 0) {
    await ctx.trx
      .deleteFrom("hub_cast_mentions")
      .where("mention_fid", "in", [...new Set(mentions)])
      .where("ts_hash", "=", row.ts_hash)
      .execute();
  }
  if (counting === "counted") await adjustCount(ctx, row.fid, row.store as StoreType, -1);
  return message;
}
