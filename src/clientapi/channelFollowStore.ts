import { sql } from "kysely";
import { channelsChanged } from "./channelStore.js";
import type { After } from "./paging.js";
import type { ApiDb } from "./tables.js";

// The keyset page reads are the hot path: they are written as parameterised SQL templates, which
// cost about half as much per request as the same queries built with the query builder.

export async function channelFollowers(
  db: ApiDb,
  channelId: string,
  after: After | undefined,
  limit: number,
) {
  const keyset = after ? sql`and (followed_at, id) < (${after.at}, ${after.id})` : sql``;
  const { rows } = await sql<{ id: number; fid: number; followed_at: number }>`
    select id, fid, followed_at from api_channel_follows
    where channel_id = ${channelId} ${keyset}
    order by followed_at desc, id desc limit ${limit}`.execute(db);
  return rows;
}

export async function followedChannels(db: ApiDb, fid: number, after: After | undefined, limit: number) {
  const keyset = after ? sql`and (followed_at, id) < (${after.at}, ${after.id})` : sql``;
  const { rows } = await sql<{ id: number; channel_id: string; followed_at: number }>`
    select id, channel_id, followed_at from api_channel_follows
    where fid = ${fid} ${keyset}
    order by followed_at desc, id desc limit ${limit}`.execute(db);
  return rows;
}

export function followedAt(db: ApiDb, channelId: string, fid: number): Promise<number | undefined> {
  return db
    .selectFrom("api_channel_follows")
    .select("followed_at")
    .where("channel_id", "=", channelId)
    .where("fid", "=", fid)
    .executeTakeFirst()
    .then((row) => row?.followed_at);
}

/** Returns whether a follow was added (false when the fid already followed). */
export async function follow(trx: ApiDb, channelId: string, fid: number, at: number): Promise<boolean> {
  const inserted = await trx
    .insertInto("api_channel_follows")
    .values({ channel_id: channelId, fid, followed_at: at })
    .onConflict((oc) => oc.columns(["channel_id", "fid"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return false;
  await addFollowerCount(trx, channelId, 1);
  return true;
}

/** Returns whether a follow was removed. */
export async function unfollow(trx: ApiDb, channelId: string, fid: number): Promise<boolean> {
  const deleted = await trx
    .deleteFrom("api_channel_follows")
    .where("channel_id", "=", channelId)
    .where("fid", "=", fid)
    .returning("id")
    .executeTakeFirst();
  if (!deleted) return false;
  await addFollowerCount(trx, channelId, -1);
  return true;
}

/** Bulk load for seeding and benchmarks: follows that are all new, and the counts they add. */
export async function insertFollows(
  trx: ApiDb,
  channelId: string,
  follows: { fid: number; followedAt: number }[],
): Promise<void> {
  if (follows.length === 0) return;
  await trx
    .insertInto("api_channel_follows")
    .values(follows.map((f) => ({ channel_id: channelId, fid: f.fid, followed_at: f.followedAt })))
    .execute();
  await addFollowerCount(trx, channelId, follows.length);
}

/** The channel row carries its follower count, so a change to it is a change to the channel. */
async function addFollowerCount(trx: ApiDb, channelId: string, delta: number): Promise<void> {
  await trx
    .updateTable("api_channels")
    .set((eb) => ({ follower_count: eb("follower_count", "+", delta) }))
    .where("id", "=", channelId)
    .execute();
  await channelsChanged(trx);
}
