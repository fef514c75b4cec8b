/**
 * GET /v1/activity/reactorsByAuthor: the activity the client API's power badges need when it runs
 * apart from the hub (a castnet route; the reference hub has no such read). One answer is a scan of
 * every reaction in the window, so the read is an operator's, reaches back a bounded window, and
 * repeated reads share one answer for a while.
 */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import { operatorGuard } from "../../../http/index.js";
import { HubError } from "../../../protocol/errors.js";
import { hubErrors } from "../../errors.js";
import { integer } from "./query.js";

/** `since` is rounded down to this, so that the job's ever-moving `now - window` hits the cache. */
const SINCE_STEP_SECONDS = 60;
/** Answers kept at once; a few different windows, not one per caller-chosen time. */
const CACHED_ANSWERS = 8;

type Authors = { fid: number; reactors: number }[];

export const activityRoutes: FastifyPluginAsync<HubRoutesOptions> = async (
  fastify,
  { service, adminToken, activityRead, now },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const cache = new Map<number, { expires: number; answer: Promise<Authors> }>();

  const answer = (since: number): Promise<Authors> => {
    const at = now();
    for (const [key, entry] of cache) if (entry.expires <= at) cache.delete(key);
    const cached = cache.get(since);
    if (cached) return cached.answer;
    if (cache.size >= CACHED_ANSWERS) cache.delete(cache.keys().next().value!);
    const fresh = service
      .reactorsByAuthor(since)
      .then((counts) =>
        [...counts].map(([fid, reactors]) => ({ fid, reactors })).sort((a, b) => a.fid - b.fid),
      );
    cache.set(since, { expires: at + activityRead.cacheMs, answer: fresh });
    fresh.catch(() => cache.delete(since));
    return fresh;
  };

  app.get(
    "/v1/activity/reactorsByAuthor",
    {
      onRequest: operatorGuard(adminToken, hubErrors),
      schema: {
        summary: "Reactors by author",
        description:
          "Who reacted to whose casts since a time: what the client API's power badges are computed from (SPEC rule 3).",
        tags: ["Activity"],
        querystring: { type: "object", required: ["since"], properties: { since: integer } },
        response: {
          200: {
            type: "object",
            required: ["authors"],
            properties: {
              authors: {
                type: "array",
                items: {
                  type: "object",
                  required: ["fid", "reactors"],
                  properties: { fid: { type: "integer" }, reactors: { type: "integer" } },
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const earliest = Math.floor(now() / 1000) - activityRead.windowDays * 86_400;
      const since = request.query.since;
      if (since < earliest)
        throw new HubError(
          "bad_request.validation_failure",
          `since must be at most ${activityRead.windowDays} days ago (no earlier than ${earliest}, ${new Date(earliest * 1000).toISOString()})`,
        );
      return { authors: await answer(since - (since % SINCE_STEP_SECONDS)) };
    },
  );
};
