import { sql } from "kysely";
import { compiled, type Database } from "../storage/index.js";
import { channelsChanged } from "./channelStore.js";
import { keysetPage, keysetPageParameters } from "./keysetPage.js";
import type { Keyset } from "./paging.js";
import type { ClientApiDb, ClientApiTables } from "./tables.js";

// The keyset page reads are the hot path: each is compiled once per form (first page, later page)
// and read column by column (`Database.readColumns`), which on SQLite skips Kysely and makes a JS
// value per column rather than per cell.

/** A page of a channel's follows, column by column. */
export interface FollowerColumns {
  id: number[];
  fid: number[];
  followed_at: number[];
}

export function channelFollowers(
  database: Database<ClientApiTables>,
  channelId: string,
  after: Keyset | undefined,
  limit: number,
): Promise<FollowerColumns> {
  const parameters = [channelId, ...keysetPageParameters(after, limit)];
  return database.readColumns(
    compiled(
      database.db,
      "api.channelFollowers",
      () =>
        database.db
          .selectFrom("api_channel_follows")
          .select(["id", "fid", "followed_at"])
          .where("channel_id", "=", channelId)
          .$call((query) => keysetPage(query, "followed_at", "desc", after, limit)),
      parameters,
    ),
    ["id", "fid", "followed_at"],
  );
}

/** A page of a fid's follows, column by column, each row with the channels version. */
export interface FollowedChannelColumns {
  id: number[];
  channel_id: string[];
  followed_at: number[];
  channels_version: number[];
}

/**
 * A page of a fid's follows, each row with the channels version read in the same statement (so in
 * the same snapshot): the version the page's channels are rendered at, without a query of its own.
 */
export function followedChannels(
  database: Database<ClientApiTables>,
  fid: number,
  after: Keyset | undefined,
  limit: number,
): Promise<FollowedChannelColumns> {
  const parameters = [fid, ...keysetPageParameters(after, limit)];
  // The version row is made by a migration and never deleted: the subquery is never null.
  return database.readColumns(
    compiled(
      database.db,
      "api.followedChannels",
      () =>
        database.db
          .selectFrom("api_channel_follows")
          .select(["id", "channel_id", "followed_at"])
          .select((eb) =>
            eb
              .selectFrom("api_versions")
              .select("version")
              .where("name", "=", sql.lit("channels"))
              .as("channels_version"),
          )
          .where("fid", "=", fid)
          .$call((query) => keysetPage(query, "followed_at", "desc", after, limit)),
      parameters,
    ),
    ["id", "channel_id", "followed_at", "channels_version"],
  ) as Promise<FollowedChannelColumns>;
}

export function followedAt(db: ClientApiDb, channelId: string, fid: number): Promise<number | undefined> {
  return db
    .selectFrom("api_channel_follows")
    .select("followed_at")
    .where("channel_id", "=", channelId)
    .where("fid", "=", fid)
    .executeTakeFirst()
    .then((row) => row?.followed_at);
}

/** Returns whether a follow was added (false when the fid already followed). */
export async function follow(trx: ClientApiDb, channelId: string, fid: number, at: number): Promise<boolean> {
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
export async function unfollow(trx: ClientApiDb, channelId: string, fid: number): Promise<boolean> {
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
  trx: ClientApiDb,
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
async function addFollowerCount(trx: ClientApiDb, channelId: string, delta: number): Promise<void> {
  await trx
    .updateTable("api_channels")
    .set((eb) => ({ follower_count: eb("follower_count", "+", delta) }))
    .where("id", "=", channelId)
    .execute();
  await channelsChanged(trx);
}
