import { ChannelCache } from "./channelCache.js";
import type { Cursors } from "./cursor.js";
import { badInput, conflict, notFound } from "./errors.js";
import { ACTION_ICONS } from "./icons.js";
import { type Page, type PageQuery, readPage } from "./paging.js";
import { type ActionJson, type ChannelJson, renderAction, renderChannel } from "./render.js";
import type { ActionRow, ChannelPatch, ClientApiStore, Executor } from "./store.js";
import type { ActionKind } from "./tables.js";

export interface ChannelFields {
  url: string;
  name: string;
  imageUrl: string;
  description?: string | null;
  descriptionMentions?: number[] | null;
  descriptionMentionsPositions?: number[] | null;
  headerImageUrl?: string | null;
  leadFid?: number | null;
  moderatorFid?: number | null;
  moderatorFids?: number[] | null;
  memberCount?: number | null;
  pinnedCastHash?: string | null;
  publicCasting?: boolean | null;
  externalLink?: { title: string; url: string } | null;
}

export interface NewChannel extends ChannelFields {
  id: string;
  /** Unix seconds; defaults to now. */
  createdAt?: number;
}

export interface NewAction {
  type: ActionKind;
  name: string;
  icon: string;
  description: string;
  aboutUrl: string;
  actionUrl: string;
  /** Where clients POST; defaults to actionUrl, as clients do when the metadata names none. */
  postUrl?: string;
  /** Composer actions only, and required for them. */
  imageUrl?: string;
}

/** An action as operators see it: its id, kind, install count and place in the featured list. */
export interface ActionRecord extends ActionJson {
  id: number;
  type: ActionKind;
  installCount: number;
  featuredRank?: number;
}

const CHANNEL_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

function isUrl(value: string, schemes: readonly string[]): boolean {
  try {
    return schemes.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const WEB = ["https:", "http:"];
/** Parent URLs of channels: web pages or FIP-2 chain:// asset URLs. */
const PARENT_URL_SCHEMES = ["https:", "http:", "chain:"];

const json = (value: number[] | null | undefined) =>
  value === undefined ? undefined : value === null ? null : JSON.stringify(value);

/**
 * Channels, follows, blocks, actions and sponsors: the reads the public API serves and the operator
 * writes that feed them. Every write is one transaction, checked before anything is written.
 */
export class Directory {
  private readonly channelCache: ChannelCache;

  constructor(
    private readonly store: ClientApiStore,
    private readonly cursors: Cursors,
    private readonly nowSeconds: () => number,
  ) {
    this.channelCache = new ChannelCache(store);
  }

  // Reads

  allChannels(): Promise<ChannelJson[]> {
    return this.channelCache.all();
  }

  async channel(channelId: string): Promise<ChannelJson> {
    const row = await this.store.getChannel(channelId);
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
        this.store.channelFollowers(channelId, after && { at: after.t!, id: after.i! }, limit),
      (row) => ({ t: row.followed_at, i: row.id }),
      (row) => ({ fid: row.fid, followedAt: row.followed_at }),
    );
    // A channel with followers exists, so the hot path needs no second query; only an empty first
    // page tells an unknown channel (404) from one nobody follows yet.
    if (page.items.length === 0 && query.cursor === undefined && !(await this.store.getChannel(channelId)))
      throw unknownChannel(channelId);
    return page;
  }

  async followedChannels(fid: number, query: PageQuery): Promise<Page<ChannelJson & { followedAt: number }>> {
    const page = await readPage(
      this.cursors,
      `following:${fid}`,
      query,
      ["t", "i"],
      (after, limit) => this.store.followedChannels(fid, after && { at: after.t!, id: after.i! }, limit),
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
    const followedAt = await this.store.followedAt(channelId, fid);
    if (followedAt !== undefined) return { following: true, followedAt };
    if (!(await this.store.getChannel(channelId))) throw unknownChannel(channelId);
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
      (after, limit) => this.store.blocks(blockerFid, after && { at: after.t!, id: after.i! }, limit),
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
      (after, limit) => this.store.topActions(kind, after && { users: after.u!, id: after.i! }, limit),
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
      (after, limit) => this.store.featuredActions(after && { rank: after.r!, id: after.i! }, limit),
      (row) => ({ r: row.featured_rank ?? 0, i: row.id }),
      renderAction,
    );
  }

  // Operator writes: channels

  async createChannel(input: NewChannel): Promise<ChannelJson> {
    if (!CHANNEL_ID_PATTERN.test(input.id))
      throw badInput(
        "channel id must be 1 to 32 lower-case letters, digits or hyphens, starting and ending with a letter or digit",
      );
    const patch = this.channelPatch(input);
    const createdAt = input.createdAt ?? this.nowSeconds();
    return this.store.transaction("api:channels", async (trx) => {
      if (await this.store.getChannel(input.id, trx))
        throw conflict(`a channel with id "${input.id}" already exists`);
      await this.assertUrlFree(trx, input.url, input.id);
      await this.store.insertChannel(trx, {
        id: input.id,
        url: input.url,
        name: input.name,
        image_url: input.imageUrl,
        description: null,
        description_mentions: null,
        description_mentions_positions: null,
        header_image_url: null,
        lead_fid: null,
        moderator_fid: null,
        moderator_fids: null,
        member_count: null,
        pinned_cast_hash: null,
        public_casting: null,
        external_link_title: null,
        external_link_url: null,
        ...patch,
        created_at: createdAt,
        follower_count: 0,
      });
      return renderChannel((await this.store.getChannel(input.id, trx))!);
    });
  }

  /** Changes the given fields; `null` removes an optional one. The id never changes. */
  async updateChannel(channelId: string, input: Partial<ChannelFields>): Promise<ChannelJson> {
    const patch = this.channelPatch(input);
    return this.store.transaction("api:channels", async (trx) => {
      const current = await this.store.getChannel(channelId, trx);
      if (!current) throw unknownChannel(channelId);
      if (input.url !== undefined) await this.assertUrlFree(trx, input.url, channelId);
      await this.store.updateChannel(trx, channelId, patch);
      return renderChannel((await this.store.getChannel(channelId, trx))!);
    });
  }

  async follow(
    channelId: string,
    fid: number,
    followedAt?: number,
  ): Promise<{ following: true; followedAt: number }> {
    return this.store.transaction(`api:channel:${channelId}`, async (trx) => {
      if (!(await this.store.getChannel(channelId, trx))) throw unknownChannel(channelId);
      await this.store.follow(trx, channelId, fid, followedAt ?? this.nowSeconds());
      return { following: true, followedAt: (await this.store.followedAt(channelId, fid, trx))! };
    });
  }

  async unfollow(channelId: string, fid: number): Promise<{ following: false }> {
    return this.store.transaction(`api:channel:${channelId}`, async (trx) => {
      if (!(await this.store.getChannel(channelId, trx))) throw unknownChannel(channelId);
      await this.store.unfollow(trx, channelId, fid);
      return { following: false };
    });
  }

  /** Bulk load of new follows (seeding, benchmarks); fids already following are an error. */
  async addFollowers(channelId: string, follows: { fid: number; followedAt: number }[]): Promise<void> {
    await this.store.transaction(`api:channel:${channelId}`, async (trx) => {
      if (!(await this.store.getChannel(channelId, trx))) throw unknownChannel(channelId);
      for (let i = 0; i < follows.length; i += 1000)
        await this.store.insertFollows(trx, channelId, follows.slice(i, i + 1000));
    });
  }

  // Operator writes: blocks

  async block(
    blockerFid: number,
    blockedFid: number,
    createdAt?: number,
  ): Promise<{ blockerFid: number; blockedFid: number; createdAt: number }> {
    if (blockerFid === blockedFid) throw badInput("a fid cannot block itself");
    const at = await this.store.transaction(`api:blocks:${blockerFid}`, (trx) =>
      this.store.block(trx, blockerFid, blockedFid, createdAt ?? this.nowSeconds()),
    );
    return { blockerFid, blockedFid, createdAt: at };
  }

  async unblock(blockerFid: number, blockedFid: number): Promise<{ blocked: false }> {
    await this.store.transaction(`api:blocks:${blockerFid}`, (trx) =>
      this.store.unblock(trx, blockerFid, blockedFid),
    );
    return { blocked: false };
  }

  // Operator writes: actions

  async registerAction(input: NewAction): Promise<ActionRecord> {
    if (!ACTION_ICONS.includes(input.icon))
      throw badInput(`icon "${input.icon}" is not one of the allowed Octicon names (see docs/clientapi.md)`);
    for (const [field, value] of [
      ["aboutUrl", input.aboutUrl],
      ["actionUrl", input.actionUrl],
      ["postUrl", input.postUrl],
      ["imageUrl", input.imageUrl],
    ] as const) {
      if (value !== undefined && !isUrl(value, WEB)) throw badInput(`${field} must be an http or https URL`);
    }
    if (input.type === "composer" && input.imageUrl === undefined)
      throw badInput("a composer action needs an imageUrl");
    if (input.type === "cast" && input.imageUrl !== undefined)
      throw badInput("imageUrl is only for composer actions");
    return this.store.transaction("api:actions", async (trx) => {
      if ((await this.store.actionIdByUrl(input.type, input.actionUrl, trx)) !== undefined)
        throw conflict(`a ${input.type} action with actionUrl ${input.actionUrl} is already registered`);
      const id = await this.store.insertAction(trx, {
        kind: input.type,
        name: input.name,
        icon: input.icon,
        description: input.description,
        about_url: input.aboutUrl,
        action_url: input.actionUrl,
        post_url: input.postUrl ?? input.actionUrl,
        image_url: input.imageUrl ?? null,
        install_count: 0,
        featured_rank: null,
        created_at: this.nowSeconds(),
      });
      return this.recordOf(id, trx);
    });
  }

  async actions(): Promise<ActionRecord[]> {
    return (await this.store.listActions()).map(actionRecord);
  }

  install(actionId: number, fid: number): Promise<ActionRecord> {
    return this.store.transaction(`api:action:${actionId}`, async (trx) => {
      await this.existingAction(actionId, trx);
      await this.store.install(trx, actionId, fid, this.nowSeconds());
      return this.recordOf(actionId, trx);
    });
  }

  uninstall(actionId: number, fid: number): Promise<ActionRecord> {
    return this.store.transaction(`api:action:${actionId}`, async (trx) => {
      await this.existingAction(actionId, trx);
      await this.store.uninstall(trx, actionId, fid);
      return this.recordOf(actionId, trx);
    });
  }

  /** Puts a composer action in the featured list at `rank` (lower first; ties by id), or last. */
  feature(actionId: number, rank?: number): Promise<ActionRecord> {
    return this.store.transaction("api:actions", async (trx) => {
      const action = await this.existingAction(actionId, trx);
      if (action.kind !== "composer")
        throw conflict(`action ${actionId} is a cast action; only composer actions are featured`);
      await this.store.setFeaturedRank(trx, actionId, rank ?? (await this.store.lastFeaturedRank(trx)) + 1);
      return this.recordOf(actionId, trx);
    });
  }

  unfeature(actionId: number): Promise<ActionRecord> {
    return this.store.transaction("api:actions", async (trx) => {
      await this.existingAction(actionId, trx);
      await this.store.setFeaturedRank(trx, actionId, null);
      return this.recordOf(actionId, trx);
    });
  }

  // Operator writes: sponsors

  async sponsor(fid: number): Promise<{ fid: number; credits: number }> {
    const credits = await this.store.sponsorCredits(fid);
    if (credits === undefined) throw notFound(`fid ${fid} is not signed up as a sponsor`);
    return { fid, credits };
  }

  async setSponsorCredits(fid: number, credits: number): Promise<{ fid: number; credits: number }> {
    await this.store.transaction(`api:sponsor:${fid}`, (trx) =>
      this.store.setSponsorCredits(trx, fid, credits, this.nowSeconds()),
    );
    return { fid, credits };
  }

  private async existingAction(actionId: number, trx: Executor) {
    const action = await this.store.getAction(actionId, trx);
    if (!action) throw notFound(`No action found with id ${actionId}`);
    return action;
  }

  private async recordOf(actionId: number, q: Executor): Promise<ActionRecord> {
    return actionRecord((await this.store.getAction(actionId, q))!);
  }

  private async assertUrlFree(trx: Executor, url: string, channelId: string): Promise<void> {
    const owner = await this.store.channelIdByUrl(url, trx);
    if (owner !== undefined && owner !== channelId)
      throw conflict(`channel "${owner}" already uses the url ${url}`);
  }

  /** Checks the fields given and turns them into columns; undefined fields are left out. */
  private channelPatch(input: Partial<ChannelFields>): ChannelPatch {
    if (input.url !== undefined && !isUrl(input.url, PARENT_URL_SCHEMES))
      throw badInput("url must be an https, http or chain:// URL (the parent URL of the channel's casts)");
    for (const [field, value] of [
      ["imageUrl", input.imageUrl],
      ["headerImageUrl", input.headerImageUrl],
      ["externalLink.url", input.externalLink?.url],
    ] as const) {
      if (typeof value === "string" && !isUrl(value, WEB))
        throw badInput(`${field} must be an http or https URL`);
    }
    if (typeof input.pinnedCastHash === "string" && !/^0x[0-9a-fA-F]{40}$/.test(input.pinnedCastHash))
      throw badInput("pinnedCastHash must be a cast hash: 0x and 40 hex digits");
    const mentions = input.descriptionMentions;
    const positions = input.descriptionMentionsPositions;
    if (
      (mentions === undefined) !== (positions === undefined) ||
      (mentions === null) !== (positions === null)
    )
      throw badInput("descriptionMentions and descriptionMentionsPositions go together");
    if (mentions && positions) {
      if (mentions.length !== positions.length)
        throw badInput("descriptionMentions and descriptionMentionsPositions must have the same length");
      if (typeof input.description !== "string")
        throw badInput("descriptionMentions need a description to point into");
      const length = input.description.length;
      if (positions.some((p, i) => p > length || (i > 0 && p < positions[i - 1]!)))
        throw badInput("descriptionMentionsPositions must be ascending offsets within the description");
    }
    const patch: ChannelPatch = {};
    if (input.url !== undefined) patch.url = input.url;
    if (input.name !== undefined) patch.name = input.name;
    if (input.imageUrl !== undefined) patch.image_url = input.imageUrl;
    if (input.description !== undefined) {
      patch.description = input.description;
      // A new or removed description invalidates offsets into the old one.
      if (mentions === undefined) {
        patch.description_mentions = null;
        patch.description_mentions_positions = null;
      }
    }
    if (mentions !== undefined) {
      patch.description_mentions = json(mentions);
      patch.description_mentions_positions = json(positions);
    }
    if (input.headerImageUrl !== undefined) patch.header_image_url = input.headerImageUrl;
    if (input.leadFid !== undefined) patch.lead_fid = input.leadFid;
    if (input.moderatorFid !== undefined) patch.moderator_fid = input.moderatorFid;
    if (input.moderatorFids !== undefined) patch.moderator_fids = json(input.moderatorFids);
    if (input.memberCount !== undefined) patch.member_count = input.memberCount;
    if (input.pinnedCastHash !== undefined)
      patch.pinned_cast_hash = input.pinnedCastHash?.toLowerCase() ?? null;
    if (input.publicCasting !== undefined)
      patch.public_casting = input.publicCasting === null ? null : input.publicCasting ? 1 : 0;
    if (input.externalLink !== undefined) {
      patch.external_link_title = input.externalLink?.title ?? null;
      patch.external_link_url = input.externalLink?.url ?? null;
    }
    return patch;
  }
}

function actionRecord(row: ActionRow): ActionRecord {
  const record: ActionRecord = {
    id: row.id,
    type: row.kind,
    ...renderAction(row),
    installCount: row.install_count,
  };
  if (row.featured_rank !== null) record.featuredRank = row.featured_rank;
  return record;
}

function unknownChannel(channelId: string) {
  return notFound(`No channel found with id "${channelId}"`);
}
