/**
 * Background work, as the reference hub schedules it: pruning fids whose storage shrank (rent
 * expired) and deleting hub events older than three days. Each run is also callable by hand.
 */
import type { HubCore } from "./core.js";
import { runMerge } from "./core.js";
import { pruneEvents } from "./events.js";
import { STORE_TYPES } from "./keys.js";
import { pruneStore } from "./stores/crdt.js";
import { fidLock } from "./transaction.js";

const HOUR_MS = 60 * 60 * 1000;
const FIDS_PER_SCAN = 500;

/**
 * Prunes every fid's stores down to their current limits (after rent expiry); merges already keep
 * stores within limits, so this only finds work when storage shrank. Returns how many messages went.
 */
export async function pruneExpiredStorage(core: HubCore): Promise<number> {
  let pruned = 0;
  let after = -1;
  for (;;) {
    const rows = await core.database.db
      .selectFrom("hub_store_counts")
      .select("fid")
      .distinct()
      .where("fid", ">", after)
      .where("count", ">", 0)
      .orderBy("fid")
      .limit(FIDS_PER_SCAN)
      .execute();
    for (const { fid } of rows) {
      const id = Number(fid);
      pruned += await runMerge(core, [fidLock(id)], async (ctx) => {
        let n = 0;
        for (const store of STORE_TYPES) n += await pruneStore(ctx, id, store);
        return n;
      });
    }
    if (rows.length < FIDS_PER_SCAN) return pruned;
    after = Number(rows[rows.length - 1]!.fid);
  }
}

/** Runs both jobs every hour until stopped; a failed run is logged and tried again next hour. */
export function scheduleJobs(core: HubCore): () => void {
  const run = async () => {
    try {
      await pruneExpiredStorage(core);
      await pruneEvents(core.database.db, core.now());
    } catch (error) {
      core.logger.warn({ err: error }, "hub housekeeping failed; retrying in an hour");
    }
  };
  const timer = setInterval(() => void run(), HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
