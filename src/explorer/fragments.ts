/** Pieces the pages share: links to fids and casts, times, casts with their mentions and embeds. */
import { type Html, html, webUrl } from "./html.js";

/** A message as the hub renders it in JSON (the fields the pages read). */
export interface HubMessage {
  hash: string;
  signer: string;
  signature: string;
  dataBytes?: string;
  data: {
    type: string;
    fid: number;
    timestamp: number;
    castAddBody?: CastBody;
    castRemoveBody?: { targetHash: string };
    reactionBody?: { type: string; targetCastId?: CastId; targetUrl?: string };
    linkBody?: { type: string; targetFid?: number };
    userDataBody?: { type: string; value: string };
    verificationAddAddressBody?: { address: string; protocol?: string };
    usernameProofBody?: { name: string; owner: string };
  };
}

export interface CastId {
  fid: number;
  hash: string;
}

export interface CastBody {
  text: string;
  mentions?: number[];
  mentionsPositions?: number[];
  parentCastId?: CastId;
  parentUrl?: string;
  embeds?: { url?: string; castId?: CastId }[];
}

export interface HubPage {
  messages: HubMessage[];
  nextPageToken?: string;
}

/** Protocol timestamps count seconds from 2021-01-01T00:00:00Z. */
export const PROTOCOL_EPOCH_SECONDS = 1_609_459_200;

export const fidLink = (fid: number): Html => html`<a href="/fid/${fid}">fid ${fid}</a>`;

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
export function castText(body: CastBody): Html {
  const bytes = Buffer.from(body.text, "utf8");
  const mentions = (body.mentions ?? []).map((fid, i) => ({ fid, at: body.mentionsPositions?.[i] ?? 0 }));
  mentions.sort((a, b) => a.at - b.at);
  const pieces: Html[] = [];
  let from = 0;
  for (const { fid, at } of mentions) {
    const to = Math.min(Math.max(at, from), bytes.length);
    pieces.push(html`${bytes.subarray(from, to).toString("utf8")}`, html`<a href="/fid/${fid}">@${fid}</a>`);
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
export function castCard(message: HubMessage): Html {
  const body = message.data.castAddBody;
  if (body === undefined) return html``;
  const id = { fid: message.data.fid, hash: message.hash };
  return html`<article class="cast">
    <p class="meta">${fidLink(id.fid)} · ${protocolTime(message.data.timestamp)} · ${castLink(id)}</p>
    ${castText(body)}${embeds(body)}
    ${body.parentCastId ? html`<p class="meta">reply to ${castLink(body.parentCastId)}</p>` : ""}
    ${body.parentUrl ? html`<p class="meta">in ${parentUrlLink(body.parentUrl)}</p>` : ""}
  </article>`;
}

/** A cast's parent URL (a channel's, or any page's). */
export const parentUrlLink = (url: string): Html => outLink(url);

export function castList(messages: readonly HubMessage[], empty: string): Html {
  if (messages.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<div class="casts">${messages.map(castCard)}</div>`;
}

/** A table with a caption, its header row and rows of cells. */
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
              ${row.map((cell) => html`<td>${cell as Html | string | number}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
