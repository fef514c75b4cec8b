/** Pages of message JSON that is already rendered (stored message JSON), and the loose response schemas for them. */
import { finished } from "node:stream";
import type { FastifyReply } from "fastify";
import { sendJson } from "../../../http/index.js";
import type { MessagePage } from "../../service.js";

const HEAD = '{"messages":[';

/**
 * Answers with a page: its messages as the database joined them, between a head and a tail. A page
 * a reader thread wrote into a slot of shared memory (storage/pooledText.ts) is sent from the slot,
 * which is freed once the answer is written or the connection is gone.
 */
export function sendMessagePage(reply: FastifyReply, page: MessagePage): FastifyReply {
  const { messages } = page;
  const tail = `],"nextPageToken":${JSON.stringify(page.nextPageToken)}}`;
  if (typeof messages === "string") return sendJson(reply, HEAD + messages + tail);
  finished(reply.raw, () => messages.release());
  return sendJson(reply, messages.framed(HEAD, tail));
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
