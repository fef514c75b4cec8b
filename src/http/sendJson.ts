import type { FastifyReply } from "fastify";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Sends JSON text that is rendered already. Fastify passes text of a JSON type through as it is, so
 * a route's response schema then only documents the answer (OpenAPI) and serialises nothing.
 */
export function sendJson(reply: FastifyReply, json: string | Uint8Array): FastifyReply {
  return reply.type(JSON_TYPE).send(json);
}
