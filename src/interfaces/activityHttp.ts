/**
 * The client API's view of the hub when the hub runs in another process: GET
 * /v1/activity/reactorsByAuthor on the hub (a castnet route; the reference hub has no such read), an
 * operator read that needs the admin token the two share; and a fid's profile from the hub's public
 * reads of user data and verifications.
 */
import { type ActivitySource, PROFILE_PAGE_SIZE, profileFromMessages } from "./activity.js";

const TIMEOUT_MS = 30_000;

export interface HttpActivityOptions {
  /** Sent as a Bearer token: the hub answers this read to its operator only. */
  adminToken?: string;
}

export function httpActivitySource(hubUrl: string, options: HttpActivityOptions = {}): ActivitySource {
  const base = new URL(hubUrl.endsWith("/") ? hubUrl : `${hubUrl}/`);
  const headers: Record<string, string> = options.adminToken
    ? { authorization: `Bearer ${options.adminToken}` }
    : {};
  return {
    async reactorsByAuthor(sinceUnixSeconds) {
      const url = new URL("v1/activity/reactorsByAuthor", base);
      url.searchParams.set("since", String(Math.max(0, Math.floor(sinceUnixSeconds))));
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
      const body = (await response.json().catch(() => undefined)) as
        { authors?: { fid: number; reactors: number }[]; details?: unknown } | undefined;
      if (!response.ok) {
        const why = typeof body?.details === "string" ? `: ${body.details}` : "";
        throw new Error(`hub at ${base.origin} answered ${response.status} for ${url.pathname}${why}`);
      }
      if (!Array.isArray(body?.authors)) throw new Error(`hub at ${base.origin} answered without authors`);
      return new Map(body.authors.map((a) => [a.fid, a.reactors]));
    },
    async profileOf(fid) {
      const pages = await Promise.all(
        ["v1/userDataByFid", "v1/verificationsByFid"].map(async (path) => {
          const url = new URL(path, base);
          url.searchParams.set("fid", String(fid));
          url.searchParams.set("pageSize", String(PROFILE_PAGE_SIZE));
          const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
          const body = (await response.json().catch(() => undefined)) as { messages?: unknown } | undefined;
          if (!response.ok || !Array.isArray(body?.messages))
            throw new Error(`hub at ${base.origin} answered ${response.status} for ${url.pathname}`);
          return body.messages as Parameters<typeof profileFromMessages>[0];
        }),
      );
      return profileFromMessages(pages.flat());
    },
  };
}
