import { serializedTransaction } from "../storage/index.js";
import type { ChannelCache } from "./channelCache.js";
import * as followStore from "./channelFollowStore.js";
import * as channelStore from "./channelStore.js";
import { unknownChannel } from "./channels.js";
import type { ApiContext } from "./context.js";
import type { Cursors } from "./cursor.js";
import { nextCursor, type PageQuery, pageRequest } from "./paging.js";
import { type ClientApiDb, CLIENT_API_TABLE_PREFIX } from "./tables.js";

/** A page of a channel's followers, newest first: each fid and when it followed. */
export interface FollowerPage {
  fid: number[];
  followedAt: number[];
  next: string | undefined;
}

/** A page of the channels a fid follows, newest first: each channel's JSON text and when it was followed. */
export interface FollowedChannelPage {
  channelJson: string[];
  followedAt: number[];
  next: string | undefined;
}

/**
 * The end of a follow page read with one row more than its `limit`, to tell whether more follow:
 * cuts that row from the page's columns (`id` and `followedAt` among them, the page's keyset) and
 * returns the next page's cursor when there was one.
 */
function endOfPage(
  cursors: Cursors,
  scope: string,
  limit: number,
  id: number[],
  followedAt: number[],
  ...others: unknown[][]
): string | undefined {
  if (id.length <= limit) return undefined;
  for (const column of [id, followedAt, ...others]) column.length = limit;
  return nextCursor(cursors, scope, [followedAt[limit - 1]!, id[limit - 1]!], limit);
}

async function assertChannel(db: ClientApiDb, channelId: string): Promise<void> {
  if (!(await channelStore.getChannel(db, channelId))) throw unknownChannel(channelId);
}

/**
 * Who follows which channel: a channel's followers, a fid's channels, one fid's status in one
 * channel, and the operator's follows and unfollows.
 */
export class ChannelFollows {
  constructor(
    private readonly ctx: ApiContext,
    private readonly cache: ChannelCache,
  ) {}

  async followers(channelId: string, query: PageQuery): Promise<FollowerPage> {
    const scope = `followers:${channelId}`;
    const { after, limit } = pageRequest(this.ctx.cursors, scope, query);
    const { id, fid, followed_at } = await followStore.channelFollowers(
      this.ctx.database,
      channelId,
      after,
      limit + 1,
    );
    const next = endOfPage(this.ctx.cursors, scope, limit, id, followed_at, fid);
    // A channel with followers exists, so the hot path needs no second query; only an empty first
    // page tells an unknown channel (404) from one nobody follows yet.
    if (id.length === 0 && query.cursor === undefined) await assertChannel(this.ctx.database.db, channelId);
    return { fid, followedAt: followed_at, next };
  }

  /** Each followed channel as its JSON text (ChannelCache.texts), with the time it was followed. */
  async followedChannels(fid: number, query: PageQuery): Promise<FollowedChannelPage> {
    const scope = `following:${fid}`;
    const { after, limit } = pageRequest(this.ctx.cursors, scope, query);
    const rows = await followStore.followedChannels(this.ctx.database, fid, after, limit + 1);
    const { id, channel_id, followed_at } = rows;
    const next = endOfPage(this.ctx.cursors, scope, limit, id, followed_at, channel_id);
    if (id.length === 0) return { channelJson: [], followedAt: [], next };
    const texts = await this.cache.texts(channel_id, rows.channels_version[0]!);
    return { channelJson: channel_id.map((channel) => texts.get(channel)!), followedAt: followed_at, next };
  }

  async status(fid: number, channelId: string): Promise<{ following: boolean; followedAt?: number }> {
    const followedAt = await followStore.followedAt(this.ctx.database.db, channelId, fid);
    if (followedAt !== undefined) return { following: true, followedAt };
    await assertChannel(this.ctx.database.db, channelId);
    return { following: false };
  }

  async follow(
    channelId: string,
    fid: number,
    followedAt?: number,
  ): Promise<{ following: true; followedAt: number }> {
    return serializedTransaction(
      this.ctx.database,
      `${CLIENT_API_TABLE_PREFIX}:channel:${channelId}`,
      async (trx) => {
        await assertChannel(trx, channelId);
        await followStore.follow(trx, channelId, fid, followedAt ?? this.ctx.nowSeconds());
        return { following: true, followedAt: (await followStore.followedAt(trx, channelId, fid))! };
      },
    );
  }

  async unfollow(channelId: string, fid: number): Promise<{ following: false }> {
    return serializedTransaction(
      this.ctx.database,
      `${CLIENT_API_TABLE_PREFIX}:channel:${channelId}`,
      async (trx) => {
        await assertChannel(trx, channelId);
        await followStore.unfollow(trx, channelId, fid);
        return { following: false };
      },
    );
  }

  /** Bulk load of new follows (seeding, benchmarks); fids already following are an error. */
  async addFollowers(channelId: string, follows: { fid: number; followedAt: number }[]): Promise<void> {
    await serializedTransaction(
      this.ctx.database,
      `${CLIENT_API_TABLE_PREFIX}:channel:${channelId}`,
      async (trx) => {
        await assertChannel(trx, channelId);
        for (let i = 0; i < follows.length; i += 1000)
          await followStore.insertFollows(trx, channelId, follows.slice(i, i + 1000));
      },
    );
  }
}
