/** GET /v1/fidAddressType: what an address is to a fid (the successor node's route). */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import { hexBytesParam, integer, text } from "./query.js";

export const addressRoutes: FastifyPluginAsync<HubRoutesOptions> = async (fastify, { service }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/fidAddressType",
    {
      schema: {
        summary: "Address type",
        description:
          "Whether an address is the fid's custody address, one of its auth addresses (a key of type 2 it added on chain and has not removed) or an address it verified. The address is hex (0x optional): 20 bytes, or 32 for a Solana address or an auth address's key as the chain holds it.",
        "x-spec": "SPEC C. Hub",
        tags: ["On-chain events"],
        querystring: {
          type: "object",
          required: ["fid", "address"],
          properties: { fid: integer, address: text },
        },
        response: {
          200: {
            type: "object",
            required: ["is_custody", "is_auth", "is_verified"],
            additionalProperties: false,
            properties: {
              is_custody: { type: "boolean" },
              is_auth: { type: "boolean" },
              is_verified: { type: "boolean" },
            },
          },
        },
      },
    },
    async (request) => {
      const { fid, address } = request.query;
      const type = await service.addresses.typeOf(fid, hexBytesParam(address, "address"));
      // The successor's keys, snake_case as it writes them.
      return { is_custody: type.isCustody, is_auth: type.isAuth, is_verified: type.isVerified };
    },
  );
};
