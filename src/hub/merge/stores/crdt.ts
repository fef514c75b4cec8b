/**
 * The one merge every store shares (docs/reference/protocol-rules.md §4): find what competes for the incoming
 * message's set key, refuse it as a duplicate or a conflict when that ranks higher, otherwise delete
 * the losers and store it, then prune the store down to its limit. What a store adds to that (a rival
 * in another fid, a check against its other contents, its own event type, storage moved between
 * fids, a message that only takes back and is pruned at once) comes from its spec's hooks. Every
 * check runs before the first write, so a refused message leaves the transaction untouched.
 */
import type { Message } from "../../../protocol/generated/message.js";
import { HubError } from "../../../protocol/errors.js";
import { storageOf, storeCount, type MergeContext } from "../context.js";
import { STORE_TYPES, type StoreType } from "../../data/keys.js";
import { bytesEqual } from "../../../protocol/hash.js";
import { earliestMessage } from "../../data/messageReads.js";
import {
  deleteMessage,
  findBySetKey,
  findByTarget,
  insertMessage,
  MERGE_COLUMNS,
  type Incoming,
  type MergeRow,
} from "./rows.js";
import { MESSAGE_EVENTS, type Competitor, type StoreSpec } from "./spec.js";
import { isSetMember, specOf, STORES, storeFor } from "./index.js";

function competitor(row: MergeRow, spec: StoreSpec): Competitor {
  return { timestamp: row.timestamp, tsHash: row.ts_hash, isRemove: row.type === spec.removeType };
}

/** Refuses `me` when `existing` is the same message or outranks it. */
function mustBeat(
  existing: MergeRow,
  me: Competitor,
  ranksAbove: (a: Competitor, b: Competitor) => boolean,
  spec: StoreSpec,
): void {
  if (bytesEqual(existing.ts_hash, me.tsHash)) {
    throw new HubError("bad_request.duplicate", "message has already been merged");
  }
  const them = competitor(existing, spec);
  if (ranksAbove(them, me)) {
    throw new HubError(
      "bad_request.conflict",
      `message conflicts with a more recent ${them.isRemove ? "remove" : "add"}`,
    );
  }
}

function eventsOf(spec: StoreSpec) {
  return spec.events ?? MESSAGE_EVENTS;
}

/**
 * Storage admission (docs/reference/protocol-rules.md §5): the would-be-pruned guard. The engine has checked
 * that the fid has storage units (§3 step 9) before the merge. Standing stores are never pruned, so
 * nothing they take would be.
 */
async function admit(
  ctx: MergeContext,
  spec: StoreSpec,
  fid: number,
  tsHash: Uint8Array,
  displaced: MergeRow[],
) {
  if (spec.standing) return;
  const store = spec.store;
  const limit = (await storageOf(ctx, fid)).limit(store);
  const freed = displaced.filter((row) => row.fid === fid && row.store === store).length;
  if ((await storeCount(ctx, fid, store)) - freed < limit) return;
  const earliest = await earliestMessage(ctx.trx, fid, store);
  if (earliest !== undefined && Buffer.compare(tsHash, earliest.ts_hash) < 0) {
    throw new HubError("bad_request.prunable", "message would be pruned");
  }
}

/** Merges one validated message of a fid with storage units into its store; throws HubError when it is refused. */
export async function mergeMessage(ctx: MergeContext, incoming: Incoming): Promise<void> {
  const data = incoming.message.data;
  const spec = storeFor(data.type);
  if (spec === undefined) throw new HubError("bad_request.validation_failure", "invalid message type");
  const extra = spec.extraTypes?.find((extra) => extra.type === data.type);
  if (extra !== undefined) return extra.merge(ctx, incoming);

  const isRemove = data.type === spec.removeType;
  const me: Competitor = { timestamp: data.timestamp, tsHash: incoming.tsHash, isRemove };
  const key = spec.setKey(data, incoming.hash);
  const displaced: MergeRow[] = [];
  const existing = await findBySetKey(ctx, data.fid, spec.store, key);
  if (existing !== undefined) {
    mustBeat(existing, me, spec.ranksAbove, spec);
    displaced.push(existing);
  }
  const crossFid = spec.crossFid;
  const contested = crossFid?.target(data);
  if (crossFid !== undefined && contested !== undefined) {
    for (const other of await findByTarget(ctx, spec.store, contested)) {
      if (other.fid === data.fid) continue;
      crossFid.mayDisplace?.(other, data);
      mustBeat(other, me, crossFid.ranksAbove, spec);
      displaced.push(other);
    }
  }
  await spec.check?.(ctx, incoming);
  await admit(ctx, spec, data.fid, incoming.tsHash, displaced);

  const deleted: Message[] = [];
  for (const row of displaced) deleted.push(await deleteMessage(ctx, row, "counted"));
  const index = spec.index(data);
  await insertMessage(
    ctx,
    spec.store,
    incoming,
    key,
    // Lists show adds only: a remove keeps its subtype and target fid, not its place in by-target lists.
    isRemove ? { kind: index.kind, target: null, targetFid: index.targetFid, mentions: [] } : index,
    "counted",
  );
  ctx.events.push(eventsOf(spec).merged(incoming, deleted));
  if (spec.prunedOnMerge?.(data)) {
    const message = await deleteMessage(
      ctx,
      (await findBySetKey(ctx, data.fid, spec.store, key))!,
      "counted",
    );
    ctx.events.push(eventsOf(spec).deleted(message, "prune"));
  }
  await pruneStore(ctx, data.fid, spec.store);
  for (const fid of spec.movesStorage?.(data) ?? []) await storageMoved(ctx, fid);
}

/** A fid's storage changed within the merge: its stores are pruned down to their new limits. */
async function storageMoved(ctx: MergeContext, fid: number): Promise<void> {
  ctx.storage.delete(fid);
  for (const store of STORE_TYPES) await pruneStore(ctx, fid, store);
}

/** Deletes the oldest messages of a store until it fits its limit, one prune event each. */
export async function pruneStore(ctx: MergeContext, fid: number, store: StoreType): Promise<number> {
  const spec = specOf(store);
  if (spec.standing) return 0;
  const limit = (await storageOf(ctx, fid)).limit(store);
  const excess = (await storeCount(ctx, fid, store)) - limit;
  if (excess <= 0) return 0;
  let query = ctx.trx
    .selectFrom("hub_messages")
    .select(MERGE_COLUMNS)
    .where("fid", "=", fid)
    .where("store", "=", store);
  const beside = (spec.extraTypes ?? []).map((extra) => extra.type);
  if (beside.length > 0) query = query.where("type", "not in", beside);
  const rows = await query.orderBy("ts_hash").limit(excess).execute();
  for (const row of rows) {
    const message = await deleteMessage(ctx, row, "counted");
    ctx.events.push(eventsOf(spec).deleted(message, "prune"));
  }
  return rows.length;
}

const STANDING_STORES = STORES.filter((spec) => spec.standing).map((spec) => spec.store);

/**
 * Deletes every message the key signed for the fid (the key was removed on chain), one revoke event
 * each; what stands in standing stores stays.
 */
export async function revokeSigner(ctx: MergeContext, fid: number, signer: Uint8Array): Promise<number> {
  const rows = await ctx.trx
    .selectFrom("hub_messages")
    .select(MERGE_COLUMNS)
    .where("fid", "=", fid)
    .where("signer", "=", signer)
    .where("store", "not in", STANDING_STORES)
    .orderBy("store")
    .orderBy("ts_hash")
    .execute();
  for (const row of rows) await revokeRow(ctx, row);
  return rows.length;
}

export async function revokeRow(ctx: MergeContext, row: MergeRow): Promise<void> {
  const spec = specOf(row.store as StoreType);
  const message = await deleteMessage(ctx, row, isSetMember(spec, row.type) ? "counted" : "uncounted");
  ctx.events.push(eventsOf(spec).deleted(message, "revoke"));
}
