/** The key registry's routes: adding and removing a fid's signers. */
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { operatorGuard } from "../../http/index.js";
import { renderOnChainEvent } from "../../protocol/json/index.js";
import type { Hex, KeyAddRequest } from "../../interfaces/chain.js";
import { devchainErrors } from "../errors.js";
import {
  type DevchainRoutesOptions,
  fidParams,
  hexString,
  parseFid,
  uint32,
  waitQuery,
  writeResponses,
} from "./schemas.js";

export const keyRegistryRoutes: FastifyPluginAsync<DevchainRoutesOptions> = async (
  fastify,
  { chain, adminToken },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const operator = operatorGuard(adminToken, devchainErrors);

  app.post(
    "/v1/fids/:fid/signers",
    {
      onRequest: operator,
      schema: {
        summary: "Add a signer key",
        description: "KeyGateway.add (SPEC Authentication 3): an Ed25519 key for the fid.",
        tags: ["Key registry"],
        params: fidParams,
        querystring: waitQuery,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["key"],
          properties: {
            key: hexString(66),
            keyType: uint32,
            metadataType: { type: "integer", minimum: 0, maximum: 255 },
            metadata: hexString(16_384),
          },
        },
        response: writeResponses,
      },
    },
    async (request, reply) => {
      // The schema bounds the key's and metadata's length; the chain checks that they are hex (parseKeyAdd).
      const add = { fid: parseFid(request.params.fid), ...request.body } as KeyAddRequest;
      if (request.query.wait) return renderOnChainEvent(await chain.addKey(add));
      return reply.code(202).send(await chain.submitKeyAdd(add));
    },
  );

  app.delete(
    "/v1/fids/:fid/signers/:key",
    {
      onRequest: operator,
      schema: {
        summary: "Remove a signer key",
        description: "KeyRegistry.remove: the key stops signing for the fid.",
        tags: ["Key registry"],
        params: {
          type: "object",
          additionalProperties: false,
          required: ["fid", "key"],
          properties: { ...fidParams.properties, key: hexString(66) },
        },
        querystring: waitQuery,
        response: writeResponses,
      },
    },
    async (request, reply) => {
      const fid = parseFid(request.params.fid);
      const key = request.params.key;
      if (request.query.wait) return renderOnChainEvent(await chain.removeKey(fid, key as Hex));
      return reply.code(202).send(await chain.submitKeyRemove(fid, key as Hex));
    },
  );
};
