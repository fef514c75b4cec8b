/**
 * The client API's channels as the pages use them: a cast's parent URL that is a channel's links to
 * the channel's page, and GET /channels lists them all (the client API's GET /v2/all-channels, one
 * read: channels are made by the operator, so there are few).
 */
import { count, outLink, table, unixTime } from "./fragments.js";
import { type Html, html } from "./html.js";
import type { Sources } from "./sources.js";

export interface Channel {
  id: string;
  url: string;
  name: string;
  description?: string;
  imageUrl?: string;
  leadFid?: number;
  moderatorFids?: number[];
  createdAt: number;
  followerCount: number;
}

export class Channels {
  private readonly byUrl: ReadonlyMap<string, Channel>;
  constructor(readonly all: readonly Channel[]) {
    this.byUrl = new Map(all.map((channel) => [channel.url, channel]));
  }

  /** A cast's parent URL: the channel's page when it is a channel's, else the URL itself. */
  link(url: string): Html {
    const channel = this.byUrl.get(url);
    return channel ? channelLink(channel.id) : outLink(url);
  }
}

export const channelLink = (id: string): Html => html`<a href="/channel/${id}">/${id}</a>`;

export const NO_CHANNELS = new Channels([]);

/** Every channel, or none when the client API refuses. */
export async function readChannels(sources: Sources): Promise<Channels> {
  const found = await sources.get<{ result: { channels: Channel[] } }>("api", "/v2/all-channels", true);
  return new Channels(found?.result.channels ?? []);
}

/** GET /channels: every channel with its name, description, followers and age. */
export async function channelsPage(sources: Sources): Promise<{ title: string; body: Html }> {
  const { all } = await readChannels(sources);
  const rows = [...all]
    .sort((a, b) => b.followerCount - a.followerCount || a.id.localeCompare(b.id))
    .map((channel) => [
      channelLink(channel.id),
      channel.name,
      channel.description ?? "",
      channel.followerCount,
      unixTime(channel.createdAt),
    ]);
  const body = html`<p>${count(all.length, "channel")}, most followed first.</p>
    ${table("Channels", ["channel", "name", "description", "followers", "created"], rows)}`;
  return { title: "Channels", body };
}
