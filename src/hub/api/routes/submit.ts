/**
 * submitMessage, validateMessage and submitBulkMessages: protobuf bytes in (application/octet-stream
 * only), JSON out. A 200 from a submit means the message is durably stored.
 */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { HubError } from "../../../protocol/errors.js";
import { MAX_MESSAGE_BYTES } from "../../merge/engine.js";
import { bulkMessages } from "../bulk.js";
import { unsupportedMediaType } from "../../errors.js";
import { sendJson } from "../../../http/index.js";
import { messageSchema } from "./json.js";

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

/** A bulk submit's answer for a message it refused. */
const refusedSchema = {
  type: "object",
  required: ["hash", "errCode", "message"],
  additionalProperties: false,
  properties: { hash: { type: "string" }, errCode: { type: "string" }, message: { type: "string" } },
} as const;

/** With --rpc-auth set, submits need HTTP Basic credentials (SPEC Authentication 3). */
const rpcAuth = {
  security: [{}, { rpcAuth: [] }],
} as const;
const rpcRefusals = {
  401: "--rpc-auth is set and the credentials are missing or wrong (SPEC Authentication 3).",
};

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
    {
      ...guarded,
      bodyLimit: MAX_MESSAGE_BYTES,
      config: { refusals: rpcRefusals },
      schema: {
        ...rpcAuth,
        summary: "Submit a message",
        description:
          "Checks and stores one signed protobuf message: the answer is the stored message as JSON, or a HubError saying why it was refused.",
        "x-spec": "SPEC rules 4, 5, SPEC Errors 1, 3, SPEC Authentication 3",
        tags: ["Submit"],
        response: { 200: messageSchema },
      },
    },
    async (request, reply) => sendJson(reply, await service.submitMessage(bodyBytes(request))),
  );

  app.post(
    "/v1/validateMessage",
    {
      bodyLimit: MAX_MESSAGE_BYTES,
      schema: {
        summary: "Validate a message",
        description: "Checks a message as submitMessage does, without storing it.",
        "x-spec": "SPEC Errors 1",
        tags: ["Submit"],
        response: {
          200: {
            type: "object",
            required: ["valid", "message"],
            additionalProperties: false,
            properties: { valid: { type: "boolean" }, message: messageSchema },
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
      config: { refusals: rpcRefusals },
      schema: {
        ...rpcAuth,
        summary: "Submit messages in bulk",
        description:
          "Checks and stores many protobuf messages, each on its own: the answer lists each stored message or its error.",
        "x-spec": "SPEC Errors 1",
        tags: ["Submit"],
        response: {
          200: {
            type: "object",
            required: ["messages"],
            additionalProperties: false,
            properties: { messages: { type: "array", items: { anyOf: [messageSchema, refusedSchema] } } },
          },
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
