import type { FastifyReply } from "fastify";

const JSON_TYPE = "application/json; charset=utf-8";

// Fastify's types say a serializer returns text; what it sends after one may be bytes too.
const asItIs = (bytes: unknown) => bytes as string;

/**
 * Sends JSON text that is rendered already. Fastify passes text of a JSON type, and bytes over an
 * ArrayBuffer, through as they are, so a route's response schema then only documents the answer
 * (OpenAPI) and serialises nothing. Bytes over a SharedArrayBuffer (a page a reader thread wrote,
 * storage/pooledText.ts) it would serialise as an object: for those the reply's serializer is the
 * identity.
 */
export function sendJson(reply: FastifyReply, json: string | Uint8Array): FastifyReply {
  reply.type(JSON_TYPE);
  if (typeof json !== "string" && !(json.buffer instanceof ArrayBuffer)) reply.serializer(asItIs);
  return reply.send(json);
}
