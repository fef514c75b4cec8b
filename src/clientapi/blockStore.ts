import { keysetPage } from "./keysetPage.js";
import type { Keyset } from "./paging.js";
import type { ClientApiDb } from "./tables.js";

/** A keyset page of blocks, newest first; all blockers' when `blockerFid` is undefined. */
export function blocks(
  db: ClientApiDb,
  blockerFid: number | undefined,
  after: Keyset | undefined,
  limit: number,
) {
  return db
    .selectFrom("api_blocks")
    .select(["id", "blocker_fid", "blocked_fid", "created_at"])
    .$if(blockerFid !== undefined, (q) => q.where("blocker_fid", "=", blockerFid!))
    .$call((query) => keysetPage(query, "created_at", "desc", after, limit))
    .execute();
}

/** Returns when the block was made: `createdAt`, or the earlier time of the same block. */
export async function block(
  trx: ClientApiDb,
  blockerFid: number,
  blockedFid: number,
  createdAt: number,
): Promise<number> {
  await trx
    .insertInto("api_blocks")
    .values({ blocker_fid: blockerFid, blocked_fid: blockedFid, created_at: createdAt })
    .onConflict((oc) => oc.columns(["blocker_fid", "blocked_fid"]).doNothing())
    .execute();
  const row = await trx
    .selectFrom("api_blocks")
    .select("created_at")
    .where("blocker_fid", "=", blockerFid)
    .where("blocked_fid", "=", blockedFid)
    .executeTakeFirstOrThrow();
  return row.created_at;
}

export async function unblock(trx: ClientApiDb, blockerFid: number, blockedFid: number): Promise<boolean> {
  const deleted = await trx
    .deleteFrom("api_blocks")
    .where("blocker_fid", "=", blockerFid)
    .where("blocked_fid", "=", blockedFid)
    .returning("id")
    .executeTakeFirst();
  return deleted !== undefined;
}
