import type { ActionRow } from "./actionStore.js";
import type { ChannelRow } from "./channelStore.js";

/** A channel as the reference serves it: optional fields only when they have a value. */
export interface ChannelJson {
  id: string;
  url: string;
  name: string;
  description?: string;
  descriptionMentions?: number[];
  descriptionMentionsPositions?: number[];
  imageUrl: string;
  headerImageUrl?: string;
  leadFid?: number;
  moderatorFid?: number;
  moderatorFids?: number[];
  createdAt: number;
  followerCount: number;
  memberCount?: number;
  pinnedCastHash?: string;
  publicCasting?: boolean;
  externalLink?: { title: string; url: string };
}

export interface ActionJson {
  name: string;
  icon: string;
  description: string;
  aboutUrl: string;
  actionUrl: string;
  action: { actionType: "post"; postUrl: string };
  imageUrl?: string;
}

/**
 * Keys are added in the reference's order (the response schemas' order, routes/schemas.ts), so that
 * `JSON.stringify` of a channel is the text its schema serialises it to.
 */
export function renderChannel(row: ChannelRow): ChannelJson {
  const channel = { id: row.id, url: row.url, name: row.name } as ChannelJson;
  if (row.description !== null) channel.description = row.description;
  if (row.description_mentions !== null) channel.descriptionMentions = JSON.parse(row.description_mentions);
  if (row.description_mentions_positions !== null)
    channel.descriptionMentionsPositions = JSON.parse(row.description_mentions_positions);
  channel.imageUrl = row.image_url;
  if (row.header_image_url !== null) channel.headerImageUrl = row.header_image_url;
  if (row.lead_fid !== null) channel.leadFid = row.lead_fid;
  if (row.moderator_fid !== null) channel.moderatorFid = row.moderator_fid;
  if (row.moderator_fids !== null) channel.moderatorFids = JSON.parse(row.moderator_fids);
  channel.createdAt = row.created_at;
  channel.followerCount = row.follower_count;
  if (row.member_count !== null) channel.memberCount = row.member_count;
  if (row.pinned_cast_hash !== null) channel.pinnedCastHash = row.pinned_cast_hash;
  if (row.public_casting !== null) channel.publicCasting = row.public_casting === 1;
  if (row.external_link_title !== null && row.external_link_url !== null)
    channel.externalLink = { title: row.external_link_title, url: row.external_link_url };
  return channel;
}

export function renderAction(row: ActionRow): ActionJson {
  const action: ActionJson = {
    name: row.name,
    icon: row.icon,
    description: row.description,
    aboutUrl: row.about_url,
    actionUrl: row.action_url,
    action: { actionType: "post", postUrl: row.post_url },
  };
  if (row.image_url !== null) action.imageUrl = row.image_url;
  return action;
}
