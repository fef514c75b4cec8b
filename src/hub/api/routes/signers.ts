/**
 * Every key of a fid, on chain or added by message (data/reads/signers.ts): the successor node's
 * /v1/signer and /v1/signersByFid, in its JSON (times in Unix seconds, scopes by message type name).
 */
import type { FastifyPluginAsync } from "fastify";
import { sendJson } from "../../../http/index.js";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import {
  SignerSource,
  type Signer,
  type SignersByFidResponse,
} from "../../../protocol/generated/request_response.js";
import { toHexJson } from "../../../protocol/json/bytes.js";
import { enumName, MESSAGE_TYPE_NAMES } from "../../../protocol/json/enums.js";
import { renderOnChainEvent } from "../../../protocol/json/index.js";
import { SIGNER_PAGE_KEY_LENGTHS } from "../../data/reads/signers.js";
import type { HubRoutesOptions } from "./options.js";
import { checkTokenLength, hexParam, integer, pageRequest, pagingProperties, text } from "./query.js";

const SOURCE_NAMES = ["SIGNER_SOURCE_NONE", "SIGNER_SOURCE_ONCHAIN", "SIGNER_SOURCE_OFFCHAIN"];

/** Requester fids one request may ask the app nonces of. */
const MAX_REQUESTER_FIDS = 100;

const signerSchema = {
  type: "object",
  required: ["source", "key", "keyType", "fid"],
  properties: {
    source: { type: "string", enum: SOURCE_NAMES.slice(1) },
    key: { type: "string", description: "The Ed25519 public key, 0x hex." },
    keyType: { type: "integer" },
    fid: { type: "integer" },
    addedAt: { type: "integer", description: "Unix seconds." },
    lastUsedAt: { type: "integer", description: "Unix seconds; keys added by message." },
    ttl: { type: "integer", description: "Seconds the key lives after its last use; keys added by message." },
    expiresAt: { type: "integer", description: "Unix seconds: lastUsedAt + ttl." },
    scopes: { type: "array", items: { type: "string" }, description: "The message types it may sign." },
    requestFid: { type: "integer", description: "The app that requested the key." },
    nonce: { type: "integer", description: "The user nonce of its KEY_ADD." },
    onChainEvent: { $ref: "OnChainEvent#" },
  },
} as const;

function renderSigner(signer: Signer) {
  return {
    source: SOURCE_NAMES[signer.source],
    key: toHexJson(signer.key),
    keyType: signer.keyType,
    fid: signer.fid,
    ...(signer.addedAt === undefined ? {} : { addedAt: signer.addedAt }),
    ...(signer.source === SignerSource.OFFCHAIN
      ? {
          lastUsedAt: signer.lastUsedAt,
          ttl: signer.ttl,
          expiresAt: signer.expiresAt,
          scopes: signer.scopes.map((scope) => enumName(MESSAGE_TYPE_NAMES, scope)),
          requestFid: signer.requestFid,
          nonce: signer.nonce,
        }
      : {}),
    ...(signer.onchainEvent === undefined ? {} : { onChainEvent: renderOnChainEvent(signer.onchainEvent) }),
  };
}

function renderSignersByFid(answer: SignersByFidResponse) {
  const nonces = Object.entries(answer.requesterFidNonces);
  return {
    signers: answer.signers.map(renderSigner),
    ...(answer.nextPageToken === undefined
      ? {}
      : { nextPageToken: Buffer.from(answer.nextPageToken).toString("base64") }),
    gaslessSignerCount: answer.gaslessSignerCount,
    gaslessSignerLimit: answer.gaslessSignerLimit,
    currentUserNonce: answer.currentUserNonce,
    ...(nonces.length === 0 ? {} : { requesterFidNonces: answer.requesterFidNonces }),
  };
}

const requesterFids = { type: "array", items: integer, maxItems: MAX_REQUESTER_FIDS } as const;

export const signerRoutes: FastifyPluginAsync<HubRoutesOptions> = async (fastify, { service }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/signer",
    {
      schema: {
        summary: "One key of a fid",
        description: "An active key of the fid, added on chain or by a KEY_ADD message.",
        tags: ["Signers"],
        querystring: {
          type: "object",
          required: ["fid", "signer"],
          properties: { fid: integer, signer: text },
        },
        response: { 200: { type: "object", required: ["signer"], properties: { signer: signerSchema } } },
      },
    },
    async (request, reply) => {
      const signer = await service.signers.signer(
        request.query.fid,
        hexParam(request.query.signer, "signer", 32),
      );
      return sendJson(reply, JSON.stringify({ signer: renderSigner(signer) }));
    },
  );

  app.get(
    "/v1/signersByFid",
    {
      schema: {
        summary: "Every key of a fid",
        description:
          "The fid's active keys, on-chain ones first, then those added by message; the fid's user nonce, and the app nonces of requesterFids.",
        tags: ["Signers"],
        querystring: {
          type: "object",
          required: ["fid"],
          properties: { fid: integer, requesterFids, requester_fids: requesterFids, ...pagingProperties },
        },
        response: {
          200: {
            type: "object",
            required: ["signers", "gaslessSignerCount", "gaslessSignerLimit", "currentUserNonce"],
            properties: {
              signers: { type: "array", items: signerSchema },
              nextPageToken: { type: "string", description: "Absent on the last page." },
              gaslessSignerCount: { type: "integer" },
              gaslessSignerLimit: { type: "integer" },
              currentUserNonce: { type: "integer" },
              requesterFidNonces: {
                type: "object",
                additionalProperties: { type: "integer" },
                description: "App nonce by requester fid.",
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { fid } = request.query;
      const answer = await service.signers.signersByFid({
        fid,
        page: checkTokenLength(pageRequest(request.query), SIGNER_PAGE_KEY_LENGTHS),
        requesterFids: request.query.requester_fids ?? request.query.requesterFids ?? [],
      });
      return sendJson(reply, JSON.stringify(renderSignersByFid(answer)));
    },
  );
};
