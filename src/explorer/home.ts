/** GET /: the stack's parts and their status, counts, the latest casts, the live event feed. */
import type { HubEvent } from "./hubJson.js";
import { castList, type HubMessage, table } from "./fragments.js";
import { type Html, html } from "./html.js";
import { logTail } from "./logTail.js";
import { readLookups } from "./lookups.js";
import type { SourcePart, Sources } from "./sources.js";

const PART_LABELS: Record<SourcePart, string> = {
  api: "client API",
  hub: "hub",
  registry: "name registry",
  chain: "devchain",
};

interface HubInfo {
  version: string;
  dbStats?: { numMessages?: number; numFidEvents?: number; numFnameEvents?: number };
}

const LATEST_CASTS = 10;

export async function homePage(sources: Sources, now: () => number): Promise<{ title: string; body: Html }> {
  const urls = sources.urls();
  const parts = await Promise.all(
    (Object.keys(PART_LABELS) as SourcePart[]).map(async (part) => {
      const status = await sources.get<{ status: string }>(part, "/_ready", true).catch(() => undefined);
      const url = urls[part];
      return [
        PART_LABELS[part],
        url === undefined ? "not configured" : html`<a href="${url}/docs">${url}</a>`,
        html`<span class="${status ? "ok" : "down"}">${status?.status ?? "not answering"}</span>`,
      ];
    }),
  );
  const info = await sources.get<HubInfo>("hub", "/v1/info?dbstats=1");
  const fids =
    (await sources.get<{ fids: number[] }>("hub", "/v1/fids?pageSize=1000&reverse=true"))?.fids ?? [];
  const names = (await sources.get<{ transfers: unknown[] }>("registry", "/transfers"))?.transfers ?? [];
  const latest = await latestCasts(sources, now);
  const lookups = await readLookups(sources, [], latest);
  const counts = [
    ["fids", fids.length >= 1000 ? "1000+" : fids.length],
    ["messages", info?.dbStats?.numMessages ?? "?"],
    ["name transfers", names.length],
    ["on-chain events", info?.dbStats?.numFidEvents ?? "?"],
  ] as const;

  const body = html` <section aria-labelledby="parts-h">
      <h2 id="parts-h">Parts</h2>
      ${table("The stack's parts", ["part", "URL", "status"], parts)}
    </section>
    <section aria-labelledby="counts-h">
      <h2 id="counts-h">Counts</h2>
      <dl class="counts">
        ${counts.map(
          ([label, value]) =>
            html`<div>
              <dt>${label}</dt>
              <dd>${value}</dd>
            </div>`,
        )}
      </dl>
    </section>
    <section aria-labelledby="latest-h">
      <h2 id="latest-h">Latest casts</h2>
      <p class="hint">The newest casts the hub merged (its log keeps three days).</p>
      ${castList(latest, "No casts in the last three days.", lookups)}
    </section>
    ${liveFeed(urls.hub)}`;
  return { title: "castnet explorer", body };
}

/**
 * The casts merged last, newest first, from the tail of the hub's event log: a cast removed, pruned
 * or revoked since is left out (its removal is newer than its merge, so it is read first).
 */
async function latestCasts(sources: Sources, now: () => number): Promise<HubMessage[]> {
  const castOf = (event: HubEvent) =>
    event.mergeMessageBody?.message ?? event.pruneMessageBody?.message ?? event.revokeMessageBody?.message;
  const { events } = await logTail(sources, {
    keep: (event) => /^MESSAGE_TYPE_CAST_(ADD|REMOVE)$/.test(castOf(event)?.data.type ?? ""),
    // Room for removals among them.
    want: LATEST_CASTS * 2,
    now,
  });
  const gone = new Set<string>();
  const casts: HubMessage[] = [];
  for (const event of events) {
    const message = castOf(event)!;
    if (event.mergeMessageBody === undefined) gone.add(message.hash);
    else if (message.data.type === "MESSAGE_TYPE_CAST_REMOVE")
      gone.add(message.data.castRemoveBody!.targetHash);
    else if (!gone.has(message.hash)) casts.push(message);
  }
  return casts.slice(0, LATEST_CASTS);
}

/** The live feed: filled by /assets/app.js from the hub's event stream; without JavaScript a link. */
export function liveFeed(hubUrl: string | undefined, filter: { type?: string; fid?: number } = {}): Html {
  return html`<section aria-labelledby="live-h">
    <h2 id="live-h">Live events</h2>
    <p class="live-status" data-live-status>
      Live updates need JavaScript; <a href="/events">the events page</a> lists them.
    </p>
    <ol
      class="live"
      data-live-feed
      data-hub="${hubUrl ?? ""}"
      data-type="${filter.type ?? ""}"
      data-fid="${filter.fid ?? ""}"
      aria-live="polite"
    ></ol>
  </section>`;
}
