/** Pages of message JSON that is already rendered (stored message JSON), and the loose response schemas for them. */
import type { MessagePage } from "../service.js";

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
