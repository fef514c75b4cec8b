/**
 * GET /cast/:fid/:hash: the cast, its parent and replies, its reactions, the raw message, and a link
 * into the event log at the cast's time. The hub keeps no index of events by message (every merge
 * would pay a write for it), so the page reads no events: each of its hub reads is one seek of an
 * index or one page of a list.
 */
import {
  castCard,
  castLink,
  castList,
  count,
  type HubMessage,
  type HubPage,
  PROTOCOL_EPOCH_SECONDS,
  protocolTime,
  table,
} from "./fragments.js";
import { eventIdAt } from "./logTail.js";
import { type Html, html } from "./html.js";
import { readLookups } from "./lookups.js";
import { type Sources, withQuery } from "./sources.js";

export async function castPage(
  sources: Sources,
  fid: number,
  hash: string,
): Promise<{ title: string; body: Html } | undefined> {
  const cast = await sources.get<HubMessage>("hub", withQuery("/v1/castById", { fid, hash }), true);
  const body = cast?.data.castAddBody;
  if (cast === undefined || body === undefined) return undefined;
  const parentId = body.parentCastId;
  // Where its merge is in the log: a message merges after it is made (its timestamp may run ten
  // minutes ahead of the hub's clock).
  const since = eventIdAt((cast.data.timestamp + PROTOCOL_EPOCH_SECONDS - 600) * 1000);
  const [parent, replies, reactions] = await Promise.all([
    parentId
      ? sources.get<HubMessage>("hub", withQuery("/v1/castById", { ...parentId }), true)
      : Promise.resolve(undefined),
    sources.get<HubPage>("hub", withQuery("/v1/castsByParent", { fid, hash, pageSize: 100 }), true),
    sources.get<HubPage>(
      "hub",
      withQuery("/v1/reactionsByCast", { target_fid: fid, target_hash: hash, pageSize: 100 }),
      true,
    ),
  ]);
  const likes = (reactions?.messages ?? []).filter((m) => m.data.reactionBody?.type === "REACTION_TYPE_LIKE");
  const recasts = (reactions?.messages ?? []).filter(
    (m) => m.data.reactionBody?.type === "REACTION_TYPE_RECAST",
  );
  const lookups = await readLookups(
    sources,
    [...likes, ...recasts].map((m) => m.data.fid),
    [cast, ...(parent ? [parent] : []), ...(replies?.messages ?? [])],
  );
  const { people } = lookups;
  const page = html` ${
      parentId
        ? html`<section aria-labelledby="parent-h">
            <h2 id="parent-h">In reply to</h2>
            ${parent ? castCard(parent, lookups) : html`<p>${castLink(parentId)} (not on this hub)</p>`}
          </section>`
        : ""
    }
    <section aria-labelledby="cast-h">
      <h2 id="cast-h">Cast</h2>
      ${castCard(cast, lookups)}
    </section>
    <section aria-labelledby="replies-h">
      <h2 id="replies-h">Replies</h2>
      ${castList(replies?.messages ?? [], "No replies.", lookups)}
    </section>
    <section aria-labelledby="reactions-h">
      <h2 id="reactions-h">Reactions</h2>
      <p>${count(likes.length, "like")}, ${count(recasts.length, "recast")}.</p>
      ${table(
        "Likes and recasts",
        ["who", "type", "time"],
        [...likes, ...recasts].map((m) => [
          people.link(m.data.fid),
          m.data.reactionBody?.type === "REACTION_TYPE_RECAST" ? "recast" : "like",
          protocolTime(m.data.timestamp),
        ]),
      )}
    </section>
    <section aria-labelledby="raw-h">
      <h2 id="raw-h">Raw message</h2>
      <dl class="facts raw">
        <div>
          <dt>hash</dt>
          <dd><code>${cast.hash}</code></dd>
        </div>
        <div>
          <dt>signer</dt>
          <dd><code>${cast.signer}</code></dd>
        </div>
        <div>
          <dt>signature</dt>
          <dd><code>${cast.signature}</code></dd>
        </div>
        ${
          cast.dataBytes
            ? html`<div>
                <dt>data bytes</dt>
                <dd><code>${cast.dataBytes}</code></dd>
              </div>`
            : ""
        }
      </dl>
      <details>
        <summary>Message JSON</summary>
        <pre>${JSON.stringify(cast, null, 2)}</pre>
      </details>
    </section>
    <section aria-labelledby="events-h">
      <h2 id="events-h">Its events</h2>
      <p>
        Its merge comes after
        <a href="${withQuery("/events", { fid, from: since })}"
          >this point of the log, filtered to ${people.short(fid)}</a
        >
        (a message merges after it is made; the log keeps three days); see also
        <a href="/events?fid=${fid}">the latest events of ${people.short(fid)}</a>.
      </p>
    </section>`;
  return { title: `Cast ${hash.slice(0, 10)} by ${people.short(fid)}`, body: page };
}
