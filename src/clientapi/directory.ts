import { type Database, serializedTransaction } from "../storage/index.js";
import * as actionStore from "./actionStore.js";
import { type ActionRecord, type NewAction, actionRecord, checkNewAction, newActionRow } from "./actions.js";
import * as blockStore from "./blockStore.js";
import { ChannelCache } from "./channelCache.js";
import * as followStore from "./channelFollowStore.js";
import * as channelStore from "./channelStore.js";
import {
  type ChannelFields,
  type NewChannel,
  channelPatch,
  checkChannelId,
  newChannelRow,
  unknownChannel,
} from "./channels.js";
import type { Cursors } from "./cursor.js";
import { badInput, conflict, notFound } from "./errors.js";
import { type Page, type PageQuery, readPage } from "./paging.js";
import { type ActionJson, type ChannelJson, renderAction, renderChannel } from "./render.js";
import * as sponsorStore from "./sponsorStore.js";
import type { ActionKind, ApiDb, ApiTables } from "./tables.js";

/**
 * Channels, follows, blocks, actions and sponsors: the reads the public API serves and the operator
 * writes that feed them. Every write is one transaction, checked before anything is written.
 */
export class Directory {
  private readonly channelCache: ChannelCache;

  constructor(
    private readonly database: Database<ApiTables>,
    private readonly cursors: Cursors,
    private readonly nowSeconds: () => number,
  ) {
    this.channelCache = new ChannelCache(database.db);
  }

  // Reads

  allChannels(): Promise<ChannelJson[]> {
    return this.channelCache.all();
  }

  async channel(channelId: string): Promise<ChannelJson> {
    const row = await channelStore.getChannel(this.database.db, channelId);
    if (!row) throw unknownChannel(channelId);
    return renderChannel(row);
  }

  async channelFollowers(
    channelId: string,
    query: PageQuery,
  ): Promise<Page<{ fid: number; followedAt: number }>> {
    const page = await readPage(
      this.cursors,
      `followers:${channelId}`,
      query,
      ["t", "i"],
      (after, limit) =>
        followStore.channelFollowers(
          this.database.db,
          channelId,
          after && { at: after.t!, id: after.i! },
          limit,
        ),
      (row) => ({ t: row.followed_at, i: row.id }),
      (row) => ({ fid: row.fid, followedAt: row.followed_at }),
    );
    // A channel with followers exists, so the hot path needs no second query; only an empty first
    // page tells an unknown channel (404) from one nobody follows yet.
    if (
      page.items.length === 0 &&
      query.cursor === undefined &&
      !(await channelStore.getChannel(this.database.db, channelId))
    )
      throw unknownChannel(channelId);
    return page;
  }

  async followedChannels(fid: number, query: PageQuery): Promise<Page<ChannelJson & { followedAt: number }>> {
    const page = await readPage(
      this.cursors,
      `following:${fid}`,
      query,
      ["t", "i"],
      (after, limit) =>
        followStore.followedChannels(this.database.db, fid, after && { at: after.t!, id: after.i! }, limit),
      (row) => ({ t: row.followed_at, i: row.id }),
      (row) => row,
    );
    const channels = await this.channelCache.get(page.items.map((row) => row.channel_id));
    return {
      ...page,
      items: page.items.map((row) => ({ ...channels.get(row.channel_id)!, followedAt: row.followed_at })),
    };
  }

  async followStatus(fid: number, channelId: string): Promise<{ following: boolean; followedAt?: number }> {
    const followedAt = await followStore.followedAt(this.database.db, channelId, fid);
    if (followedAt !== undefined) return { following: true, followedAt };
    if (!(await channelStore.getChannel(this.database.db, channelId))) throw unknownChannel(channelId);
    return { following: false };
  }

  blockedUsers(
    blockerFid: number | undefined,
    query: PageQuery,
  ): Promise<Page<{ blockerFid: number; blockedFid: number; createdAt: number }>> {
    return readPage(
      this.cursors,
      `blocks:${blockerFid ?? "all"}`,
      query,
      ["t", "i"],
      (after, limit) =>
        blockStore.blocks(this.database.db, blockerFid, after && { at: after.t!, id: after.i! }, limit),
      (row) => ({ t: row.created_at, i: row.id }),
      (row) => ({ blockerFid: row.blocker_fid, blockedFid: row.blocked_fid, createdAt: row.created_at }),
    );
  }

  topActions(kind: ActionKind, query: PageQuery): Promise<Page<ActionJson>> {
    return readPage(
      this.cursors,
      `top:${kind}`,
      query,
      ["u", "i"],
      (after, limit) =>
        actionStore.topActions(this.database.db, kind, after && { users: after.u!, id: after.i! }, limit),
      (row) => ({ u: row.install_count, i: row.id }),
      renderAction,
    );
  }

  featuredActions(query: PageQuery): Promise<Page<ActionJson>> {
    return readPage(
      this.cursors,
      "featured",
      query,
      ["r", "i"],
      (after, limit) =>
        actionStore.featuredActions(this.database.db, after && { rank: after.r!, id: after.i! }, limit),
      (row) => ({ r: row.featured_rank ?? 0, i: row.id }),
      renderAction,
    );
  }

  // Operator writes: channels

  async createChannel(input: NewChannel): Promise<ChannelJson> {
    checkChannelId(input.id);
    const patch = channelPatch(input);
    const createdAt = input.createdAt ?? this.nowSeconds();
    return serializedTransaction(this.database, "api:channels", async (trx) => {
      if (await channelStore.getChannel(trx, input.id))
        throw conflict(`a channel with id "${input.id}" already exists`);
      await assertUrlFree(trx, input.url, input.id);
      await channelStore.insertChannel(trx, newChannelRow(input, patch, createdAt));
      return renderChannel((await channelStore.getChannel(trx, input.id))!);
    });
  }

  /** Changes the given fields; `null` removes an optional one. The id never changes. */
  async updateChannel(channelId: string, input: Partial<ChannelFields>): Promise<ChannelJson> {
    const patch = channelPatch(input);
    return serializedTransaction(this.database, "api:channels", async (trx) => {
      const current = await channelStore.getChannel(trx, channelId);
      if (!current) throw unknownChannel(channelId);
      if (input.url !== undefined) await assertUrlFree(trx, input.url, channelId);
      await channelStore.updateChannel(trx, channelId, patch);
      return renderChannel((await channelStore.getChannel(trx, channelId))!);
    });
  }

  async follow(
    channelId: string,
    fid: number,
    followedAt?: number,
  ): Promise<{ following: true; followedAt: number }> {
    return serializedTransaction(this.database, `api:channel:${channelId}`, async (trx) => {
      if (!(await channelStore.getChannel(trx, channelId))) throw unknownChannel(channelId);
      await followStore.follow(trx, channelId, fid, followedAt ?? this.nowSeconds());
      return { following: true, followedAt: (await followStore.followedAt(trx, channelId, fid))! };
    });
  }

  async unfollow(channelId: string, fid: number): Promise<{ following: false }> {
    return serializedTransaction(this.database, `api:channel:${channelId}`, async (trx) => {
      if (!(await channelStore.getChannel(trx, channelId))) throw unknownChannel(channelId);
      await followStore.unfollow(trx, channelId, fid);
      return { following: false };
    });
  }

  /** Bulk load of new follows (seeding, benchmarks); fids already following are an error. */
  async addFollowers(channelId: string, follows: { fid: number; followedAt: number }[]): Promise<void> {
    await serializedTransaction(this.database, `api:channel:${channelId}`, async (trx) => {
      if (!(await channelStore.getChannel(trx, channelId))) throw unknownChannel(channelId);
      for (let i = 0; i < follows.length; i += 1000)
        await followStore.insertFollows(trx, channelId, follows.slice(i, i + 1000));
    });
  }

  // Operator writes: blocks

  async block(
    blockerFid: number,
    blockedFid: number,
    createdAt?: number,
  ): Promise<{ blockerFid: number; blockedFid: number; createdAt: number }> {
    if (blockerFid === blockedFid) throw badInput("a fid cannot block itself");
    const at = await serializedTransaction(this.database, `api:blocks:${blockerFid}`, (trx) =>
      blockStore.block(trx, blockerFid, blockedFid, createdAt ?? this.nowSeconds()),
    );
    return { blockerFid, blockedFid, createdAt: at };
  }

  async unblock(blockerFid: number, blockedFid: number): Promise<{ blocked: false }> {
    await serializedTransaction(this.database, `api:blocks:${blockerFid}`, (trx) =>
      blockStore.unblock(trx, blockerFid, blockedFid),
    );
    return { blocked: false };
  }

  // Operator writes: actions

  async registerAction(input: NewAction): Promise<ActionRecord> {
    checkNewAction(input);
    return serializedTransaction(this.database, "api:actions", async (trx) => {
      if ((await actionStore.actionIdByUrl(trx, input.type, input.actionUrl)) !== undefined)
        throw conflict(`a ${input.type} action with actionUrl ${input.actionUrl} is already registered`);
      const id = await actionStore.insertAction(trx, newActionRow(input, this.nowSeconds()));
      return recordOf(trx, id);
    });
  }

  async actions(): Promise<ActionRecord[]> {
    return (await actionStore.listActions(this.database.db)).map(actionRecord);
  }

  install(actionId: number, fid: number): Promise<ActionRecord> {
    return serializedTransaction(this.database, `api:action:${actionId}`, async (trx) => {
      await existingAction(trx, actionId);
      await actionStore.install(trx, actionId, fid, this.nowSeconds());
      return recordOf(trx, actionId);
    });
  }

  uninstall(actionId: number, fid: number): Promise<ActionRecord> {
    return serializedTransaction(this.database, `api:action:${actionId}`, async (trx) => {
      await existingAction(trx, actionId);
      await actionStore.uninstall(trx, actionId, fid);
      return recordOf(trx, actionId);
    });
  }

  /** Puts a composer action in the featured list at `rank` (lower first; ties by id), or last. */
  feature(actionId: number, rank?: number): Promise<ActionRecord> {
    return serializedTransaction(this.database, "api:actions", async (trx) => {
      const action = await existingAction(trx, actionId);
      if (action.kind !== "composer")
        throw conflict(`action ${actionId} is a cast action; only composer actions are featured`);
      await actionStore.setFeaturedRank(trx, actionId, rank ?? (await actionStore.lastFeaturedRank(trx)) + 1);
      return recordOf(trx, actionId);
    });
  }

  unfeature(actionId: number): Promise<ActionRecord> {
    return serializedTransaction(this.database, "api:actions", async (trx) => {
      await existingAction(trx, actionId);
      await actionStore.setFeaturedRank(trx, actionId, null);
      return recordOf(trx, actionId);
    });
  }

  // Operator writes: sponsors

  async sponsor(fid: number): Promise<{ fid: number; credits: number }> {
    const credits = await sponsorStore.sponsorCredits(this.database.db, fid);
    if (credits === undefined) throw notFound(`fid ${fid} is not signed up as a sponsor`);
    return { fid, credits };
  }

  async setSponsorCredits(fid: number, credits: number): Promise<{ fid: number; credits: number }> {
    await serializedTransaction(this.database, `api:sponsor:${fid}`, (trx) =>
      sponsorStore.setSponsorCredits(trx, fid, credits, this.nowSeconds()),
    );
    return { fid, credits };
  }
}

async function assertUrlFree(trx: ApiDb, url: string, channelId: string): Promise<void> {
  const owner = await channelStore.channelIdByUrl(trx, url);
  if (owner !== undefined && owner !== channelId)
    throw conflict(`channel "${owner}" already uses the url ${url}`);
}

async function existingAction(trx: ApiDb, actionId: number) {
  const action = await actionStore.getAction(trx, actionId);
  if (!action) throw notFound(`No action found with id ${actionId}`);
  return action;
}

async function recordOf(db: ApiDb, actionId: number): Promise<ActionRecord> {
  return actionRecord((await actionStore.getAction(db, actionId))!);
}
