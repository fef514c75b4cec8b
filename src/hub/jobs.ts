/**
 * Background work, as the reference hub schedules it: pruning fids whose storage shrank (rent
 * expired) and deleting hub events older than three days. Each run is also callable by hand.
 */
import type { HubCore } from "./core.js";
import { runMerge } from "./core.js";
import { pruneEvents } from "./data/events.js";
import { STORE_TYPES, type StoreType } from "./data/keys.js";
import { loadStorages } from "./merge/limits.js";
import { pruneStore } from "./merge/stores/crdt.js";
import { specOf } from "./merge/stores/index.js";
import { fidLock } from "./merge/locks.js";

const FIDS_PER_SCAN = 500;

/**
 * Prunes every fid's stores down to their current limits (after rent expiry); merges already keep
 * stores within limits, so this only finds work when storage shrank. Returns how many messages went.
 */
export async function pruneExpiredStorage(core: HubCore): Promise<number> {
  const db = core.database.db;
  let pruned = 0;
  let after = -1;
  for (;;) {
    const fids = (
      await db
        .selectFrom("hub_store_counts")
        .select("fid")
        .distinct()
        .where("fid", ">", after)
        .where("count", ">", 0)
        .orderBy("fid")
        .limit(FIDS_PER_SCAN)
        .execute()
    ).map((row) => row.fid);
    if (fids.length === 0) return pruned;
    // Only fids over a limit get a merge transaction; nearly every scan finds none.
    const storages = await loadStorages(db, fids, core.now());
    const counts = await db
      .selectFrom("hub_store_counts")
      .select(["fid", "store", "count"])
      .where("fid", "in", fids)
      .execute();
    const over = new Set(
      counts
        .filter((c) => !specOf(c.store as StoreType).standing)
        .filter((c) => c.count > storages.get(c.fid)!.limit(c.store as StoreType))
        .map((c) => c.fid),
    );
    for (const fid of over) {
      pruned += await runMerge(core, [fidLock(fid)], async (ctx) => {
        let n = 0;
        for (const store of STORE_TYPES) n += await pruneStore(ctx, fid, store);
        return n;
      });
    }
    if (fids.length < FIDS_PER_SCAN) return pruned;
    after = fids[fids.length - 1]!;
  }
}

/** Both jobs, one after the other: the hub runs them every hour (src/hub/index.ts). */
export async function housekeeping(core: HubCore): Promise<void> {
  await pruneExpiredStorage(core);
  await pruneEvents(core.database.db, core.now());
}
