import type { ActivitySource } from "../clientapi/activity.js";

interface ReactorsByAuthorReply {
  authors: { fid: number; reactors: number }[];
}

/**
 * The hub's activity over HTTP (GET /v1/activity/reactorsByAuthor), for a client API that runs in
 * another process than the hub.
 */
export function httpActivitySource(hubUrl: string): ActivitySource {
  const base = hubUrl.replace(/\/$/, "");
  return {
    async reactorsByAuthor(sinceUnixSeconds) {
      const response = await fetch(
        `${base}/v1/activity/reactorsByAuthor?since=${Math.floor(sinceUnixSeconds)}`,
      );
      if (!response.ok) throw new Error(`hub at ${base} answered ${response.status} to reactorsByAuthor`);
      const reply = (await response.json()) as ReactorsByAuthorReply;
      return new Map(reply.authors.map((a) => [a.fid, a.reactors]));
    },
  };
}
