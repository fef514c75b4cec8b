/**
 * The client API's view of hub activity when the hub runs in another process: GET
 * /v1/activity/reactorsByAuthor on the hub (a castnet route; the reference hub has no such read).
 */
import type { ActivitySource } from "../clientapi/activity.js";

const TIMEOUT_MS = 30_000;

export function httpActivitySource(hubUrl: string): ActivitySource {
  const base = new URL(hubUrl.endsWith("/") ? hubUrl : `${hubUrl}/`);
  return {
    async reactorsByAuthor(sinceUnixSeconds) {
      const url = new URL("v1/activity/reactorsByAuthor", base);
      url.searchParams.set("since", String(Math.max(0, Math.floor(sinceUnixSeconds))));
      const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!response.ok)
        throw new Error(`hub at ${base.origin} answered ${response.status} for ${url.pathname}`);
      const body = (await response.json()) as { authors?: { fid: number; reactors: number }[] };
      if (!Array.isArray(body.authors)) throw new Error(`hub at ${base.origin} answered without authors`);
      return new Map(body.authors.map((a) => [a.fid, a.reactors]));
    },
  };
}
