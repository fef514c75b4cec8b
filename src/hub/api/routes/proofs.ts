/** Username proofs (docs/reference/hub-http-api.md §2, §6.3). */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import { renderUserNameProof } from "../../../protocol/json/index.js";
import { integer } from "./query.js";

const proofSchema = {
  type: "object",
  required: ["timestamp", "name", "owner", "signature", "fid", "type"],
  properties: {
    timestamp: { type: "integer" },
    name: { type: "string" },
    owner: { type: "string" },
    signature: { type: "string" },
    fid: { type: "integer" },
    type: { type: ["string", "integer"] },
  },
} as const;

export const proofRoutes: FastifyPluginAsync<HubRoutesOptions> = async (fastify, { service, profile }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/userNameProofByName",
    {
      schema: {
        summary: "Username proof by name",
        description: "The proof of a name.",
        "x-spec": "SPEC C. Username proof",
        tags: ["Username proofs"],
        querystring: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string", minLength: 1, maxLength: 256 } },
        },
        response: { 200: proofSchema },
      },
    },
    async (request) => renderUserNameProof(await service.names.proofByName(request.query.name), profile),
  );

  app.get(
    "/v1/userNameProofsByFid",
    {
      schema: {
        summary: "Username proofs by fid",
        description: "The proofs of a fid's names.",
        "x-spec": "SPEC C. Username proof",
        tags: ["Username proofs"],
        querystring: { type: "object", required: ["fid"], properties: { fid: integer } },
        response: {
          200: {
            type: "object",
            required: ["proofs"],
            properties: { proofs: { type: "array", items: proofSchema } },
          },
        },
      },
    },
    async (request) => ({
      proofs: (await service.names.proofsByFid(request.query.fid)).map((proof) =>
        renderUserNameProof(proof, profile),
      ),
    }),
  );
};
