/** A fid's account: its addresses, active signers and unexpired storage units. */
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { unknownFid } from "../restRequests.js";
import { type DevchainRoutesOptions, errorBody, fidParams, parseFid } from "./schemas.js";

export const accountRoutes: FastifyPluginAsync<DevchainRoutesOptions> = async (fastify, { chain }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/fids/:fid",
    {
      schema: {
        summary: "A fid's account",
        description: "Custody, recovery, storage units and signer keys of a fid.",
        tags: ["Accounts"],
        params: fidParams,
        response: {
          200: {
            type: "object",
            properties: {
              fid: { type: "integer" },
              custody: { type: "string" },
              recovery: { type: "string" },
              signers: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    key: { type: "string" },
                    keyType: { type: "integer" },
                    metadataType: { type: "integer" },
                    metadata: { type: "string" },
                  },
                },
              },
              storageUnits: { type: "integer" },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const fid = parseFid(request.params.fid);
      const account = await chain.getAccount(fid);
      if (!account) throw unknownFid(fid);
      return account;
    },
  );
};
