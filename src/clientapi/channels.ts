import type { Insertable } from "kysely";
import { serializedTransaction } from "../storage/index.js";
import type { ChannelCache } from "./channelCache.js";
import type { ChannelPatch } from "./channelStore.js";
import * as channelStore from "./channelStore.js";
import type { ApiContext } from "./context.js";
import { badInput, conflict, notFound } from "./errors.js";
import { type ChannelJson, renderChannel } from "./render.js";
import type { ClientApiDb, ClientApiTables } from "./tables.js";
import { WEB_SCHEMES, isUrl } from "./urls.js";

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

const CHANNEL_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
/** Parent URLs of channels: web pages or FIP-2 chain:// asset URLs. */
const PARENT_URL_SCHEMES = ["https:", "http:", "chain:"];

const json = (value: number[] | null | undefined) =>
  value === undefined ? undefined : value === null ? null : JSON.stringify(value);

function checkChannelId(id: string): void {
  if (!CHANNEL_ID_PATTERN.test(id))
    throw badInput(
      "channel id must be 1 to 32 lower-case letters, digits or hyphens, starting and ending with a letter or digit",
    );
}

/** The columns of a new channel: the required fields, then `patch` over optional ones left empty. */
function newChannelRow(
  input: NewChannel,
  patch: ChannelPatch,
  createdAt: number,
): Insertable<ClientApiTables["api_channels"]> {
  return {
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
  };
}

/** Checks the fields given and turns them into columns; undefined fields are left out. */
function channelPatch(input: Partial<ChannelFields>): ChannelPatch {
  if (input.url !== undefined && !isUrl(input.url, PARENT_URL_SCHEMES))
    throw badInput("url must be an https, http or chain:// URL (the parent URL of the channel's casts)");
  for (const [field, value] of [
    ["imageUrl", input.imageUrl],
    ["headerImageUrl", input.headerImageUrl],
    ["externalLink.url", input.externalLink?.url],
  ] as const) {
    if (typeof value === "string" && !isUrl(value, WEB_SCHEMES))
      throw badInput(`${field} must be an http or https URL`);
  }
  if (typeof input.pinnedCastHash === "string" && !/^0x[0-9a-fA-F]{40}$/.test(input.pinnedCastHash))
    throw badInput("pinnedCastHash must be a cast hash: 0x and 40 hex digits");
  const mentions = input.descriptionMentions;
  const positions = input.descriptionMentionsPositions;
  if ((mentions === undefined) !== (positions === undefined) || (mentions === null) !== (positions === null))
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

export function unknownChannel(channelId: string) {
  return notFound(`No channel found with id "${channelId}"`);
}

async function assertUrlFree(trx: ClientApiDb, url: string, channelId: string): Promise<void> {
  const owner = await channelStore.channelIdByUrl(trx, url);
  if (owner !== undefined && owner !== channelId)
    throw conflict(`channel "${owner}" already uses the url ${url}`);
}

/** Channels: the reads of one or all of them, and the operator's creates and changes. */
export class Channels {
  constructor(
    private readonly ctx: ApiContext,
    private readonly cache: ChannelCache,
  ) {}

  all(): Promise<ChannelJson[]> {
    return this.cache.all();
  }

  async get(channelId: string): Promise<ChannelJson> {
    const row = await channelStore.getChannel(this.ctx.database.db, channelId);
    if (!row) throw unknownChannel(channelId);
    return renderChannel(row);
  }

  async create(input: NewChannel): Promise<ChannelJson> {
    checkChannelId(input.id);
    const patch = channelPatch(input);
    const createdAt = input.createdAt ?? this.ctx.nowSeconds();
    return serializedTransaction(this.ctx.database, "api:channels", async (trx) => {
      if (await channelStore.getChannel(trx, input.id))
        throw conflict(`a channel with id "${input.id}" already exists`);
      await assertUrlFree(trx, input.url, input.id);
      await channelStore.insertChannel(trx, newChannelRow(input, patch, createdAt));
      return renderChannel((await channelStore.getChannel(trx, input.id))!);
    });
  }

  /** Changes the given fields; `null` removes an optional one. The id never changes. */
  async update(channelId: string, input: Partial<ChannelFields>): Promise<ChannelJson> {
    const patch = channelPatch(input);
    return serializedTransaction(this.ctx.database, "api:channels", async (trx) => {
      const current = await channelStore.getChannel(trx, channelId);
      if (!current) throw unknownChannel(channelId);
      if (input.url !== undefined) await assertUrlFree(trx, input.url, channelId);
      await channelStore.updateChannel(trx, channelId, patch);
      return renderChannel((await channelStore.getChannel(trx, channelId))!);
    });
  }
}
