/**
 * Everything a merge transaction carries: the transaction itself, the clock, the hub events it
 * produces (numbered when it commits) and the per-(fid, store) message counts it has touched
 * (written back once, at the end).
 */
import type { Kysely } from "kysely";
import type { HubEvent } from "../../protocol/generated/hub_event.js";
import type { NamingProfile } from "../../protocol/naming.js";
import { runCompiled, type DatabaseKind } from "../../storage/index.js";
import type { StoreType } from "../data/keys.js";
import { loadStorage, loadStorages, type StorageUnits } from "./limits.js";
import type { HubTables } from "../data/tables.js";

/** A hub event before the transaction numbers it. */
export type PendingEvent = Omit<HubEvent, "id" | "blockNumber" | "shardIndex" | "timestamp">;

interface Count {
  fid: number;
  store: StoreType;
  count: number;
  dirty: boolean;
}

export interface MergeContext {
  readonly trx: Kysely<HubTables>;
  readonly engine: DatabaseKind;
  readonly profile: NamingProfile;
  /** Unix ms, fixed for the transaction. */
  readonly nowMs: number;
  readonly events: PendingEvent[];
  readonly counts: Map<string, Count>;
  readonly storage: Map<number, StorageUnits>;
}

export function newContext(
  trx: Kysely<HubTables>,
  engine: DatabaseKind,
  profile: NamingProfile,
  nowMs: number,
): MergeContext {
  return { trx, engine, profile, nowMs, events: [], counts: new Map(), storage: new Map() };
}

export async function storeCount(ctx: MergeContext, fid: number, store: StoreType): Promise<number> {
  const key = `${fid}:${store}`;
  let entry = ctx.counts.get(key);
  if (entry === undefined) {
    const row = await ctx.trx
      .selectFrom("hub_store_counts")
      .select("count")
      .where("fid", "=", fid)
      .where("store", "=", store)
      .executeTakeFirst();
    entry = { fid, store, count: row?.count ?? 0, dirty: false };
    ctx.counts.set(key, entry);
  }
  return entry.count;
}

export async function adjustCount(
  ctx: MergeContext,
  fid: number,
  store: StoreType,
  delta: number,
): Promise<void> {
  await storeCount(ctx, fid, store);
  const entry = ctx.counts.get(`${fid}:${store}`)!;
  entry.count += delta;
  entry.dirty = true;
}

export async function flushCounts(ctx: MergeContext): Promise<void> {
  const dirty = [...ctx.counts.values()].filter((c) => c.dirty);
  if (dirty.length === 0) return;
  await runCompiled(
    ctx.trx,
    "flushCounts",
    () =>
      ctx.trx
        .insertInto("hub_store_counts")
        .values(dirty.map((c) => ({ fid: c.fid, store: c.store, count: c.count })))
        .onConflict((oc) =>
          oc.columns(["fid", "store"]).doUpdateSet((eb) => ({ count: eb.ref("excluded.count") })),
        ),
    dirty.flatMap((c) => [c.fid, c.store, c.count]),
  );
  for (const c of dirty) c.dirty = false;
}

export async function storageOf(ctx: MergeContext, fid: number): Promise<StorageUnits> {
  let storage = ctx.storage.get(fid);
  if (storage === undefined) {
    storage = await loadStorage(ctx.trx, fid, ctx.nowMs);
    ctx.storage.set(fid, storage);
  }
  return storage;
}

/** Loads the counts and storage of many fids at once, ahead of a group of merges. */
export async function prefetch(
  ctx: MergeContext,
  fids: readonly number[],
  stores: readonly StoreType[],
): Promise<void> {
  const missing = fids.filter((fid) => !ctx.storage.has(fid));
  if (missing.length === 0) return;
  for (const [fid, storage] of await loadStorages(ctx.trx, missing, ctx.nowMs)) ctx.storage.set(fid, storage);
  const rows = await runCompiled(
    ctx.trx,
    "storeCounts",
    () =>
      ctx.trx.selectFrom("hub_store_counts").select(["fid", "store", "count"]).where("fid", "in", missing),
    missing,
  );
  for (const row of rows) {
    const { fid, count } = row;
    const store = row.store as StoreType;
    ctx.counts.set(`${fid}:${store}`, { fid, store, count, dirty: false });
  }
  for (const fid of missing) {
    for (const store of stores) {
      const key = `${fid}:${store}`;
      if (!ctx.counts.has(key)) ctx.counts.set(key, { fid, store, count: 0, dirty: false });
    }
  }
}
