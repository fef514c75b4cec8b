import { serializedTransaction } from "../storage/index.js";
import type { ChannelCache } from "./channelCache.js";
import * as followStore from "./channelFollowStore.js";
import * as channelStore from "./channelStore.js";
import { unknownChannel } from "./channels.js";
import type { ApiContext } from "./context.js";
import { type Page, type PageQuery, readPage } from "./paging.js";
import type { ApiDb } from "./tables.js";

async function assertChannel(db: ApiDb, channelId: string): Promise<void> {
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

  async followers(channelId: string, query: PageQuery): Promise<Page<{ fid: number; followedAt: number }>> {
    const page = await readPage(
      this.ctx.cursors,
      `followers:${channelId}`,
      query,
      ["t", "i"],
      (after, limit) =>
        followStore.channelFollowers(
          this.ctx.database,
          channelId,
          after && { at: after.t!, id: after.i! },
          limit,
        ),
      ([id, , followedAt]) => ({ t: followedAt, i: id }),
      ([, fid, followedAt]) => ({ fid, followedAt }),
    );
    // A channel with followers exists, so the hot path needs no second query; only an empty first
    // page tells an unknown channel (404) from one nobody follows yet.
    if (page.items.length === 0 && query.cursor === undefined)
      await assertChannel(this.ctx.database.db, channelId);
    return page;
  }

  /** Each followed channel as its JSON text (ChannelCache.texts), with the time it was followed. */
  async followedChannels(
    fid: number,
    query: PageQuery,
  ): Promise<Page<{ channelJson: string; followedAt: number }>> {
    const page = await readPage(
      this.ctx.cursors,
      `following:${fid}`,
      query,
      ["t", "i"],
      (after, limit) =>
        followStore.followedChannels(this.ctx.database, fid, after && { at: after.t!, id: after.i! }, limit),
      ([id, , followedAt]) => ({ t: followedAt, i: id }),
      (row) => row,
    );
    const first = page.items[0];
    if (first === undefined) return { ...page, items: [] };
    // The version row is made by a migration and never deleted.
    const texts = await this.cache.texts(
      page.items.map(([, channelId]) => channelId),
      first[3],
    );
    return {
      ...page,
      items: page.items.map(([, channelId, followedAt]) => ({
        channelJson: texts.get(channelId)!,
        followedAt,
      })),
    };
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
    return serializedTransaction(this.ctx.database, `api:channel:${channelId}`, async (trx) => {
      await assertChannel(trx, channelId);
      await followStore.follow(trx, channelId, fid, followedAt ?? this.ctx.nowSeconds());
      return { following: true, followedAt: (await followStore.followedAt(trx, channelId, fid))! };
    });
  }

  async unfollow(channelId: string, fid: number): Promise<{ following: false }> {
    return serializedTransaction(this.ctx.database, `api:channel:${channelId}`, async (trx) => {
      await assertChannel(trx, channelId);
      await followStore.unfollow(trx, channelId, fid);
      return { following: false };
    });
  }

  /** Bulk load of new follows (seeding, benchmarks); fids already following are an error. */
  async addFollowers(channelId: string, follows: { fid: number; followedAt: number }[]): Promise<void> {
    await serializedTransaction(this.ctx.database, `api:channel:${channelId}`, async (trx) => {
      await assertChannel(trx, channelId);
      for (let i = 0; i < follows.length; i += 1000)
        await followStore.insertFollows(trx, channelId, follows.slice(i, i + 1000));
    });
  }
}
