import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import type { ClientApiRoutesOptions } from "./options.js";
import * as s from "./schemas.js";

const keyRequestBody = {
  type: "object",
  properties: {
    key: { type: "string", maxLength: 200 },
    requestFid: { type: ["integer", "string"], maxLength: 20 },
    deadline: { type: "integer" },
    signature: { type: "string", maxLength: 300 },
    redirectUrl: { type: "string", minLength: 1, maxLength: 2048 },
    sponsorship: {
      type: "object",
      properties: {
        sponsorFid: { type: ["integer", "string"], maxLength: 20 },
        signature: { type: "string", maxLength: 300 },
      },
      required: ["sponsorFid", "signature"],
      additionalProperties: false,
    },
  },
  required: ["key", "requestFid", "deadline", "signature"],
  additionalProperties: false,
} as const;

const keyRequestReply = s.envelope(s.result({ signedKeyRequest: s.signedKeyRequest }));
const token = { type: "string", minLength: 1, maxLength: 200 } as const;

/** The signed key request flow of SPEC B, with the reference's spellings, and castnet's approval interface. */
export const keyRequestRoutes: FastifyPluginAsync<ClientApiRoutesOptions> = async (
  fastify,
  { service: { keyRequests } },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  // The reference names the create path in the singular and posts to the plural in every example.
  for (const path of ["/v2/signed-key-request", "/v2/signed-key-requests"]) {
    app.post(
      path,
      {
        schema: {
          summary: "Create a signed key request",
          description:
            "An app asks a user to add its key: the key, the app fid's EIP-712 signature and deadline, and an optional sponsorship; the answer carries the link the user opens to approve.",
          "x-spec": "SPEC Signed key request (pending), SPEC Authentication 2, 4, 5, 6",
          tags: ["Signed key requests"],
          body: keyRequestBody,
          response: keyRequestReply,
        },
      },
      async (request) => ({
        result: {
          signedKeyRequest: await keyRequests.create(request.body, request.ip),
        },
      }),
    );
  }

  app.get(
    "/v2/signed-key-request",
    {
      schema: {
        summary: "Signed key request by token",
        description:
          "A signed key request's state (pending, approved, completed) and, once completed, the fid of the user who approved it.",
        "x-spec": "SPEC Signed key request",
        tags: ["Signed key requests"],
        querystring: s.object({ token }, ["token"]),
        response: keyRequestReply,
      },
    },
    async (request) => ({ result: { signedKeyRequest: await keyRequests.get(request.query.token) } }),
  );

  const typedField = {
    type: "array",
    items: s.result({ name: { type: "string" }, type: { type: "string" } }),
  };
  app.get(
    "/v2/signed-key-request/approval",
    {
      schema: {
        summary: "What approving needs",
        description:
          "castnet's approval interface: the KeyGateway typed data the user's custody signs to approve.",
        tags: ["Signed key requests"],
        querystring: s.object({ token, fid: s.fid }, ["token", "fid"]),
        response: s.envelope(
          s.result(
            {
              typedData: s.result({
                domain: s.result({
                  name: { type: "string" },
                  version: { type: "string" },
                  chainId: { type: "integer" },
                  verifyingContract: { type: "string" },
                }),
                types: s.result({ EIP712Domain: typedField, Add: typedField }),
                primaryType: { type: "string" },
                message: s.result({
                  owner: { type: "string" },
                  keyType: { type: "integer" },
                  key: { type: "string" },
                  metadataType: { type: "integer" },
                  metadata: { type: "string" },
                  nonce: { type: "integer" },
                  deadline: { type: "integer" },
                }),
              }),
              redirectUrl: { type: "string" },
            },
            ["typedData"],
          ),
        ),
      },
    },
    async (request) => ({
      result: await keyRequests.approvalTypedData(request.query.token, request.query.fid),
    }),
  );

  app.post(
    "/v2/signed-key-request/approval",
    {
      schema: {
        summary: "Approve a request",
        description:
          "The user's approval: their custody address's signature adds the app's key to their fid on chain.",
        "x-spec": "SPEC Signed key request (approved → completed)",
        tags: ["Signed key requests"],
        body: {
          type: "object",
          properties: {
            token,
            fid: s.fid,
            nonce: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
            deadline: { type: "integer" },
            signature: { type: "string", maxLength: 300 },
          },
          required: ["token", "fid", "nonce", "deadline", "signature"],
          additionalProperties: false,
        },
        response: keyRequestReply,
      },
    },
    async (request) => ({ result: { signedKeyRequest: await keyRequests.approve(request.body) } }),
  );
};
