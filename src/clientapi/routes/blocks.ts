import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { operatorRoute, params } from "./operator.js";
import type { ClientApiRoutesOptions } from "./options.js";
import { paged } from "./paged.js";
import * as s from "./schemas.js";

const blockParams = params({ blockerFid: s.fid, blockedFid: s.fid });

/** Blocks: the public list and the operator's blocks and unblocks. */
export const userBlockRoutes: FastifyPluginAsync<ClientApiRoutesOptions> = async (
  fastify,
  { service: { blocks }, adminToken },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const operator = operatorRoute(adminToken);

  // The reference documented /v1/blocked-users first and moved it to /fc/blocked-users later; both answer.
  for (const path of ["/v1/blocked-users", "/fc/blocked-users"]) {
    app.get(
      path,
      {
        schema: {
          summary: "Blocked users",
          description: "Who blocks whom, optionally of one blocker; served at both /v1/ and /fc/.",
          "x-spec": "SPEC B. Client API, SPEC Versioning 1",
          tags: ["Blocks"],
          querystring: s.object({ blockerFid: s.fid, ...s.paging }),
          response: s.envelope(s.result({ blockedUsers: { type: "array", items: s.blockedUser } }), true),
        },
      },
      async (request) => {
        const { blockerFid, ...page } = request.query;
        return paged(await blocks.list(blockerFid, page), (blockedUsers) => ({ blockedUsers }));
      },
    );
  }

  app.put(
    "/v1/admin/blocks/:blockerFid/:blockedFid",
    operator({
      summary: "Record a block",
      description: "Operator: one fid blocks another.",
      tags: ["Blocks"],
      params: blockParams,
      body: s.object({ createdAt: s.unixSeconds }),
      response: s.envelope(s.result({ blockedUser: s.blockedUser })),
    }),
    async (request) => ({
      result: {
        blockedUser: await blocks.block(
          request.params.blockerFid,
          request.params.blockedFid,
          request.body.createdAt,
        ),
      },
    }),
  );

  app.delete(
    "/v1/admin/blocks/:blockerFid/:blockedFid",
    operator({
      summary: "Remove a block",
      description: "Operator: undoes a block.",
      tags: ["Blocks"],
      params: blockParams,
      response: s.envelope(s.result({ blocked: { type: "boolean" } })),
    }),
    async (request) => ({
      result: await blocks.unblock(request.params.blockerFid, request.params.blockedFid),
    }),
  );
};
