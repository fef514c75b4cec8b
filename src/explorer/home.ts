/** GET /: the stack's parts and their status, counts, the latest casts, the live event feed. */
import { castList, type HubMessage, type HubPage, table } from "./fragments.js";
import { type Html, html } from "./html.js";
import { type SourcePart, type Sources, withQuery } from "./sources.js";

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

/** The latest casts: the newest casts of the most recently registered fids. */
const LATEST_FIDS = 10;
const LATEST_CASTS = 10;

export async function homePage(sources: Sources): Promise<{ title: string; body: Html }> {
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
  const latest = await latestCasts(sources, fids.slice(0, LATEST_FIDS));
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
      ${castList(latest, "No casts yet.")}
    </section>
    ${liveFeed(urls.hub)}`;
  return { title: "castnet explorer", body };
}

async function latestCasts(sources: Sources, fids: readonly number[]): Promise<HubMessage[]> {
  const pages = await Promise.all(
    fids.map((fid) =>
      sources.get<HubPage>("hub", withQuery("/v1/castsByFid", { fid, pageSize: 3, reverse: true })),
    ),
  );
  return pages
    .flatMap((page) => page?.messages ?? [])
    .sort((a, b) => b.data.timestamp - a.data.timestamp)
    .slice(0, LATEST_CASTS);
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
