/** Sending JSON text that is already rendered (stored message JSON), and the loose response schemas for it. */
import type { FastifyReply } from "fastify";
import type { MessagePage } from "../service.js";

const JSON_TYPE = "application/json; charset=utf-8";

export function sendJson(reply: FastifyReply, json: string | Uint8Array): FastifyReply {
  return reply.type(JSON_TYPE).send(json);
}

/** The page's messages as the database joined them, between a head and a tail. */
export function pageJson(page: MessagePage): string {
  return `{"messages":[${page.messages}],"nextPageToken":${JSON.stringify(page.nextPageToken)}}`;
}

/**
 * Message JSON is rendered once, when the message is merged, and sent as text; these schemas
 * document the shape (src/protocol/json/messageSchema.ts) and Fastify does not re-serialise text.
 */
export const messageSchema = { $ref: "Message#" } as const;

export const pageSchema = {
  type: "object",
  required: ["messages", "nextPageToken"],
  additionalProperties: false,
  properties: {
    messages: { type: "array", items: messageSchema },
    nextPageToken: { type: "string", description: "Empty on the last page." },
  },
} as const;
