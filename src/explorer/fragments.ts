/** Pieces the pages share: links to casts, times, casts with their authors, mentions, channel and embeds. */
import type { CastBody, CastId, HubMessage } from "./hubJson.js";
import { type Html, html, webUrl } from "./html.js";
import type { People } from "./people.js";

export type { CastBody, CastId, HubMessage, HubPage } from "./hubJson.js";

/** What a page knows of the fids and channels it shows (read once per page: lookups.ts). */
export interface Lookups {
  people: People;
  /** A cast's parent URL as a link: to the channel's page when it is a channel's (channels.ts). */
  channels: { link(url: string): Html };
}

/** Protocol timestamps count seconds from 2021-01-01T00:00:00Z. */
export const PROTOCOL_EPOCH_SECONDS = 1_609_459_200;

export const castPath = (id: CastId): string => `/cast/${id.fid}/${id.hash}`;

export const castLink = (id: CastId, label?: string): Html =>
  html`<a href="${castPath(id)}"><code>${label ?? shortHash(id.hash)}</code></a>`;

export const shortHash = (hash: string): string => (hash.length > 14 ? `${hash.slice(0, 10)}…` : hash);

export function unixTime(seconds: number): Html {
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) return html`${seconds}`;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace("T", " ")} UTC</time>`;
}

export const protocolTime = (timestamp: number): Html => unixTime(timestamp + PROTOCOL_EPOCH_SECONDS);

/** A link that leaves castnet: only http(s), never followed with the page's referrer. */
export function outLink(url: string | undefined, label?: string): Html {
  const safe = webUrl(url);
  if (safe === undefined) return html`<code class="inert">${url ?? ""}</code>`;
  return html`<a href="${safe}" rel="nofollow noopener noreferrer">${label ?? url}</a>`;
}

/** The cast's text with each mention, at its UTF-8 byte position, a link to the fid's page. */
export function castText(body: CastBody, people: People): Html {
  const bytes = Buffer.from(body.text, "utf8");
  const mentions = (body.mentions ?? []).map((fid, i) => ({ fid, at: body.mentionsPositions?.[i] ?? 0 }));
  mentions.sort((a, b) => a.at - b.at);
  const pieces: Html[] = [];
  let from = 0;
  for (const { fid, at } of mentions) {
    const to = Math.min(Math.max(at, from), bytes.length);
    pieces.push(html`${bytes.subarray(from, to).toString("utf8")}`, people.shortLink(fid));
    from = to;
  }
  pieces.push(html`${bytes.subarray(from).toString("utf8")}`);
  return html`<p class="text">${pieces}</p>`;
}

export function embeds(body: CastBody): Html {
  const list = body.embeds ?? [];
  if (list.length === 0) return html``;
  return html`<ul class="embeds">
    ${list.map(
      (embed) => html`<li>${embed.castId ? html`cast ${castLink(embed.castId)}` : outLink(embed.url)}</li>`,
    )}
  </ul>`;
}

/** One cast as a card: author, time, text, embeds, what it replies to, and a link to its page. */
export function castCard(message: HubMessage, { people, channels }: Lookups): Html {
  const body = message.data.castAddBody;
  if (body === undefined) return html``;
  const id = { fid: message.data.fid, hash: message.hash };
  const parent = body.parentCastId;
  return html`<article class="cast">
    <p class="author">${people.link(id.fid)}</p>
    <p class="meta">${protocolTime(message.data.timestamp)} · ${castLink(id)}</p>
    ${castText(body, people)}${embeds(body)}
    ${parent ? html`<p class="meta">reply to ${castLink(parent)} by ${people.shortLink(parent.fid)}</p>` : ""}
    ${body.parentUrl ? html`<p class="meta">in ${channels.link(body.parentUrl)}</p>` : ""}
  </article>`;
}

/** The fids a cast names: its author, its mentions and the author of the cast it answers. */
export function castFids(message: HubMessage): number[] {
  const body = message.data.castAddBody;
  return [
    message.data.fid,
    ...(body?.mentions ?? []),
    ...(body?.parentCastId ? [body.parentCastId.fid] : []),
  ];
}

export function castList(messages: readonly HubMessage[], empty: string, lookups: Lookups): Html {
  if (messages.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<div class="casts">${messages.map((message) => castCard(message, lookups))}</div>`;
}

/** "1 like", "2 likes". */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * A table with a caption, its header row and rows of cells; on a phone each row is a card of its
 * cells, each labelled with its column (style.css).
 */
export function table(caption: string, head: readonly string[], rows: readonly (readonly unknown[])[]): Html {
  if (rows.length === 0) return html`<p class="empty">${caption}: none.</p>`;
  return html`<div class="scroll">
    <table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${head.map((h) => html`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (row) =>
            html`<tr>
              ${row.map((cell, i) => html`<td data-label="${head[i]}">${cell as Html | string | number}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
