/** The id registry's routes: registering a fid, and the fid an address is custody of. */
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { getAddress } from "viem";
import { operatorGuard } from "../../http/index.js";
import type { Hex, RegisterRequest } from "../../interfaces/chain.js";
import { devchainErrors } from "../errors.js";
import { DevchainError } from "../../interfaces/chainErrors.js";
import { normaliseAddress } from "../restRequests.js";
import { address, type DevchainRoutesOptions, errorBody, transactionStatus, waitQuery } from "./schemas.js";

export const idRegistryRoutes: FastifyPluginAsync<DevchainRoutesOptions> = async (
  fastify,
  { chain, adminToken },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.post(
    "/v1/fids",
    {
      onRequest: operatorGuard(adminToken, devchainErrors),
      schema: {
        summary: "Register a fid",
        description: "IdGateway.register: a new fid for a custody address.",
        tags: ["Id registry"],
        querystring: waitQuery,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["custody"],
          properties: { custody: address, recovery: address },
        },
        response: {
          200: {
            type: "object",
            properties: {
              fid: { type: "integer" },
              custody: { type: "string" },
              recovery: { type: "string" },
            },
          },
          202: transactionStatus,
          "4xx": errorBody,
        },
      },
    },
    async (request, reply) => {
      // The schema bounds the addresses' length; the chain checks that they are addresses (parseRegister).
      const registration = request.body as RegisterRequest;
      if (request.query.wait) return chain.register(registration);
      return reply.code(202).send(await chain.submitRegister(registration));
    },
  );

  app.get(
    "/v1/addresses/:address",
    {
      schema: {
        summary: "Fid of an address",
        description: "IdRegistry.idOf: the fid an address holds in custody.",
        tags: ["Id registry"],
        params: {
          type: "object",
          additionalProperties: false,
          required: ["address"],
          properties: { address },
        },
        response: {
          200: { type: "object", properties: { address: { type: "string" }, fid: { type: "integer" } } },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const normalised = normaliseAddress(request.params.address, "address");
      const fid = await chain.fidOf(normalised as Hex);
      if (fid === undefined) {
        throw new DevchainError(
          "unknown_address",
          `${getAddress(normalised)} is not the custody address of any fid`,
        );
      }
      return { address: getAddress(normalised), fid };
    },
  );
};
