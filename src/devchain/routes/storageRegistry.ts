/** The storage registry's route: renting units for a fid. */
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { operatorGuard } from "../../http/index.js";
import { renderOnChainEvent } from "../../protocol/json/index.js";
import { devchainErrors } from "../errors.js";
import { MAX_UNITS_PER_RENT } from "../restRequests.js";
import { type DevchainRoutesOptions, fidParams, parseFid, waitQuery, writeResponses } from "./schemas.js";

export const storageRegistryRoutes: FastifyPluginAsync<DevchainRoutesOptions> = async (
  fastify,
  { chain, adminToken },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.post(
    "/v1/fids/:fid/storage",
    {
      onRequest: operatorGuard(adminToken, devchainErrors),
      schema: {
        summary: "Rent storage",
        description: "StorageRegistry.rent: units of storage for the fid.",
        tags: ["Storage registry"],
        params: fidParams,
        querystring: waitQuery,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["units"],
          properties: { units: { type: "integer", minimum: 1, maximum: MAX_UNITS_PER_RENT } },
        },
        response: writeResponses,
      },
    },
    async (request, reply) => {
      const fid = parseFid(request.params.fid);
      if (request.query.wait) return renderOnChainEvent(await chain.rentStorage(fid, request.body.units));
      return reply.code(202).send(await chain.submitStorageRent(fid, request.body.units));
    },
  );
};
