/** How page routes answer: an HTML page, and the OpenAPI declaration of those answers. */
import type { FastifyReply } from "fastify";
import { layout, type PageFrame } from "./layout.js";

const HTML = { "text/html": { schema: { type: "string" } } };

/**
 * The answers of a page route: the page, and refusals as a page or, from the HTTP layer, JSON in the
 * host server's error shape (`errorSchema`, inlined without its `$id`).
 */
export function pageResponses(errorSchema: { $id: string }, refusals: Record<number, string>) {
  const { $id: _id, ...errorBody } = errorSchema;
  const HTML_OR_JSON = { ...HTML, "application/json": { schema: errorBody } };
  const responses: Record<number, object> = { 200: { description: "The page.", content: HTML } };
  for (const [status, description] of Object.entries({
    400: "The address is malformed: a page saying why, or the API's error body from the schema check.",
    404: "No such thing: a page saying so, or the API's error body for a path no page has.",
    429: "Too many pages from this client address: a page saying when to come back, with Retry-After.",
    503: "A part the page reads did not answer.",
    ...refusals,
  }))
    responses[Number(status)] = { description, content: HTML_OR_JSON };
  return responses;
}

const HTML_TYPE = "text/html; charset=utf-8";

export function sendHtmlPage(reply: FastifyReply, frame: PageFrame, status = 200): FastifyReply {
  return reply.code(status).type(HTML_TYPE).send(layout(frame));
}
