import type { FastifyPluginAsync } from "fastify";
import { type Params, operatorRoute, params } from "./operator.js";
import type { ClientApiRoutesOptions } from "./options.js";
import * as s from "./schemas.js";

const fidArray = { type: "array", items: { type: "integer" } };
const run = {
  type: "object",
  properties: {
    slot: { type: ["integer", "null"] },
    ranAt: { type: "integer" },
    computedCount: { type: "integer" },
  },
  required: ["slot", "ranAt", "computedCount"],
};
const badgeStateReply = s.envelope(
  s.result({
    holders: fidArray,
    rule: s.result({ minReactors: { type: "integer" }, windowDays: { type: "integer" } }),
    computed: fidArray,
    grants: fidArray,
    revocations: fidArray,
    lastRun: { anyOf: [run, { type: "null" }] },
    nextRun: { type: "integer" },
  }),
);
const fidParams = params({ fid: s.fid });

/** Power badges: the public holders, and the operator's state, grants, revocations and runs. */
export const powerBadgeRoutes: FastifyPluginAsync<ClientApiRoutesOptions> = async (
  app,
  { service: { powerBadges }, adminToken },
) => {
  const operator = operatorRoute(adminToken);

  app.get(
    "/v2/power-badge-users",
    { schema: { querystring: s.object({}), response: s.envelope(s.result({ fids: fidArray })) } },
    async () => ({ result: { fids: await powerBadges.holders() } }),
  );

  app.get("/v1/admin/power-badges", operator({ response: badgeStateReply }), async () => ({
    result: await powerBadges.state(),
  }));

  app.put<Params<{ fid: number }> & { Body: { badge: "grant" | "revoke" } }>(
    "/v1/admin/power-badges/:fid",
    operator({
      params: fidParams,
      body: s.object({ badge: { type: "string", enum: ["grant", "revoke"] } }, ["badge"]),
      response: badgeStateReply,
    }),
    async (request) => {
      if (request.body.badge === "grant") await powerBadges.grant(request.params.fid);
      else await powerBadges.revoke(request.params.fid);
      return { result: await powerBadges.state() };
    },
  );

  app.delete<Params<{ fid: number }>>(
    "/v1/admin/power-badges/:fid",
    operator({ params: fidParams, response: badgeStateReply }),
    async (request) => {
      await powerBadges.clearOverride(request.params.fid);
      return { result: await powerBadges.state() };
    },
  );

  app.post(
    "/v1/admin/power-badges/recalculate",
    operator({ response: s.envelope(s.result({ run })) }),
    async () => ({ result: { run: await powerBadges.recalculate() } }),
  );
};
