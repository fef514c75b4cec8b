/**
 * submitMessage, validateMessage and submitBulkMessages: protobuf bytes in (application/octet-stream
 * only), JSON out. A 200 from a submit means the message is durably stored.
 */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { HubError } from "../../protocol/errors.js";
import { bulkMessages } from "../bulk.js";
import { MAX_MESSAGE_BYTES } from "../engine.js";
import { unsupportedMediaType } from "../errors.js";
import { sendJson } from "./json.js";

const BULK_BODY_LIMIT = 8 * 1024 * 1024;
const OCTET_STREAM = "application/octet-stream";

function bodyBytes(request: FastifyRequest): Uint8Array {
  const body = request.body;
  if (body === undefined || body === null || (Buffer.isBuffer(body) && body.length === 0)) {
    throw new HubError(
      "bad_request.parse_failure",
      "the request body is empty; send the protobuf bytes of a Message",
    );
  }
  return body as Buffer;
}

const loose = { type: "object", additionalProperties: true } as const;

export const submitRoutes: FastifyPluginAsync<HubRoutesOptions> = async (app, { service, auth }) => {
  // Only protobuf bytes: any other content type (JSON included) is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    OCTET_STREAM,
    { parseAs: "buffer", bodyLimit: BULK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.addContentTypeParser("*", (request, _payload, done) =>
    done(
      unsupportedMediaType(
        `the body must be the protobuf bytes of a Message sent as ${OCTET_STREAM}, not ${request.headers["content-type"] ?? "without a content type"}`,
      ),
    ),
  );
  // On the request, before its body is read: an unauthenticated caller costs no read nor parse.
  const guarded = auth === undefined ? {} : { onRequest: auth };

  app.post(
    "/v1/submitMessage",
    { ...guarded, bodyLimit: MAX_MESSAGE_BYTES, schema: { response: { 200: loose } } },
    async (request, reply) => sendJson(reply, await service.submitMessage(bodyBytes(request))),
  );

  app.post(
    "/v1/validateMessage",
    {
      bodyLimit: MAX_MESSAGE_BYTES,
      schema: {
        response: {
          200: {
            type: "object",
            required: ["valid", "message"],
            properties: { valid: { type: "boolean" }, message: loose },
          },
        },
      },
    },
    async (request, reply) =>
      sendJson(reply, `{"valid":true,"message":${await service.validateMessage(bodyBytes(request))}}`),
  );

  app.post(
    "/v1/submitBulkMessages",
    {
      ...guarded,
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        response: {
          200: { type: "object", required: ["messages"], properties: { messages: { type: "array" } } },
        },
      },
    },
    async (request, reply) => {
      const outcomes = await service.submitBulkMessages(bulkMessages(bodyBytes(request)));
      const entries = outcomes.map((o) =>
        o.ok ? o.json : JSON.stringify({ hash: o.hash, errCode: o.error.errCode, message: o.error.message }),
      );
      return sendJson(reply, `{"messages":[${entries.join(",")}]}`);
    },
  );
};
