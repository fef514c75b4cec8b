/**
 * The pages' per-client limit. A page costs the parts it reads several requests (a cast's page
 * five to the hub), all in this process, so one client address (clientAddressKey: an IPv6 client
 * by its /64) may load only so many pages; past that it is answered a 429 page with Retry-After,
 * before anything is read. The pages' assets are not counted: every page loads them.
 */
import type { onRequestAsyncHookHandler } from "fastify";
import { clientAddressKey, RateLimiter } from "../http/index.js";
import { html } from "./html.js";
import { sendHtmlPage } from "./respond.js";

export interface PageLimits {
  /** Pages one client address may load an hour, spread out. */
  perClientPerHour: number;
  /** Pages it may load at once (from a full allowance). */
  burst: number;
}

/** A page a second on average, and a person's quick clicking through many tabs at once. */
export const DEFAULT_PAGE_LIMITS: PageLimits = { perClientPerHour: 3_600, burst: 120 };

/** The onRequest hook of every page route: spends one page of the caller's address, or answers 429. */
export function pageLimit(limits: PageLimits, now: () => number): onRequestAsyncHookHandler {
  const pages = new RateLimiter(limits.perClientPerHour, now, limits.burst);
  return async (request, reply) => {
    const client = clientAddressKey(request.ip);
    const wait = pages.waitSeconds(client);
    if (wait === 0) {
      pages.take(client);
      return undefined;
    }
    reply.header("retry-after", String(wait));
    return sendHtmlPage(
      reply,
      {
        title: "Too many requests",
        body: html`<p>
            Your address has loaded more pages than the explorer serves one client; try again in ${wait} s.
          </p>
          <p><a href="/">Back to the explorer</a></p>`,
      },
      429,
    );
  };
}
