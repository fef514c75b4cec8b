/** GET /v1/info. */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import { text } from "./query.js";

export const infoRoutes: FastifyPluginAsync<HubRoutesOptions> = async (fastify, { service }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/info",
    {
      schema: {
        summary: "Hub info",
        description: "The hub's version, network and, with dbstats, its counts.",
        "x-spec": "SPEC C. Hub",
        tags: ["Info"],
        querystring: { type: "object", properties: { dbstats: text } },
        response: {
          200: {
            // No "required": the serialiser would move required keys ahead of dbStats.
            type: "object",
            properties: {
              version: { type: "string" },
              isSyncing: { type: "boolean" },
              nickname: { type: "string" },
              rootHash: { type: "string" },
              dbStats: {
                type: "object",
                properties: {
                  numMessages: { type: "integer" },
                  numFidEvents: { type: "integer" },
                  numFnameEvents: { type: "integer" },
                  approxSize: { type: "integer" },
                },
              },
              peerId: { type: "string" },
              hubOperatorFid: { type: "integer" },
            },
          },
        },
      },
    },
    async (request) => {
      // As in the reference: `true` or a non-zero integer asks for the database statistics.
      const flag = request.query.dbstats ?? "";
      return service.info(flag === "true" || (/^\d+$/.test(flag) && Number(flag) !== 0));
    },
  );
};
