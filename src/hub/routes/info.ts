/** GET /v1/info. */
import type { FastifyPluginAsync } from "fastify";
import type { HubService } from "../service.js";
import { text } from "./query.js";

export function infoRoutes(service: HubService): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: { dbstats?: string } }>(
      "/v1/info",
      {
        schema: {
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
}
