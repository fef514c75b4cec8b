import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { operatorRoute, params } from "./operator.js";
import type { ClientApiRoutesOptions } from "./options.js";
import * as s from "./schemas.js";

const fidParams = params({ fid: s.fid });
const sponsorReply = s.envelope(
  s.result({ sponsor: s.result({ fid: { type: "integer" }, credits: { type: "integer" } }) }),
);

/** Sponsors' credits, for operators only. */
export const sponsorRoutes: FastifyPluginAsync<ClientApiRoutesOptions> = async (
  fastify,
  { service: { sponsors }, adminToken },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const operator = operatorRoute(adminToken);

  app.get(
    "/v1/admin/sponsors/:fid",
    operator({
      summary: "Sponsor credits",
      description: "Operator: a sponsor's credit balance (SPEC Authentication 6).",
      tags: ["Sponsors"],
      params: fidParams,
      response: sponsorReply,
    }),
    async (request) => ({ result: { sponsor: await sponsors.get(request.params.fid) } }),
  );

  app.put(
    "/v1/admin/sponsors/:fid",
    operator({
      summary: "Set sponsor credits",
      description: "Operator: sets the balance; 100 are needed to sponsor (SPEC Limits).",
      tags: ["Sponsors"],
      params: fidParams,
      body: s.object({ credits: s.count }, ["credits"]),
      response: sponsorReply,
    }),
    async (request) => ({
      result: { sponsor: await sponsors.setCredits(request.params.fid, request.body.credits) },
    }),
  );
};
