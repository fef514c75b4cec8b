import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { operatorRoute, params } from "./operator.js";
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
  fastify,
  { service: { powerBadges }, adminToken },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const operator = operatorRoute(adminToken);

  app.get(
    "/v2/power-badge-users",
    {
      schema: {
        summary: "Power badge holders",
        description: "The fids with a power badge, recalculated weekly on Tuesdays 12:00 UTC.",
        "x-spec": "SPEC B. Client API, SPEC Limits",
        tags: ["Power badges"],
        querystring: s.object({}),
        response: s.envelope(s.result({ fids: fidArray })),
      },
    },
    async () => ({ result: { fids: await powerBadges.holders() } }),
  );

  app.get(
    "/v1/admin/power-badges",
    operator({
      summary: "Power badge state",
      description:
        "Operator: the computed holders, the operator's grants and revocations, and the next recalculation.",
      tags: ["Power badges"],
      response: badgeStateReply,
    }),
    async () => ({
      result: await powerBadges.state(),
    }),
  );

  app.put(
    "/v1/admin/power-badges/:fid",
    operator({
      summary: "Grant or revoke a badge",
      description: "Operator: overrides the computation for one fid.",
      tags: ["Power badges"],
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

  app.delete(
    "/v1/admin/power-badges/:fid",
    operator({
      summary: "Drop an override",
      description: "Operator: the fid's badge follows the computation again.",
      tags: ["Power badges"],
      params: fidParams,
      response: badgeStateReply,
    }),
    async (request) => {
      await powerBadges.clearOverride(request.params.fid);
      return { result: await powerBadges.state() };
    },
  );

  app.post(
    "/v1/admin/power-badges/recalculate",
    operator({
      summary: "Recalculate badges now",
      description: "Operator: runs the weekly recalculation (SPEC Limits) now.",
      tags: ["Power badges"],
      response: s.envelope(s.result({ run })),
    }),
    async () => ({ result: { run: await powerBadges.recalculate() } }),
  );
};
