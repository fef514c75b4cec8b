import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { ErrorShape } from "./errors.js";

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

export function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

/**
 * The one rule for operator writes in every part: with no admin token configured they are accepted
 * from loopback addresses only; with one, they need it as a Bearer token, from anywhere. Tokens are
 * compared as SHA-256 digests in constant time, so neither their content nor their length leaks.
 */
export function operatorGuard(adminToken: string | undefined, shape: ErrorShape): preHandlerAsyncHookHandler {
  const expected = adminToken ? digest(adminToken) : undefined;
  return async function guard(request: FastifyRequest, reply: FastifyReply) {
    if (!expected) {
      if (isLoopback(request.ip)) return;
      const denied = shape.forbidden(
        "operator writes are accepted from loopback addresses only (start castnet with --admin-token to allow others)",
        403,
      );
      return reply.code(denied.statusCode).send(denied.body);
    }
    const header = request.headers.authorization ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (match?.[1] && timingSafeEqual(digest(match[1].trim()), expected)) return;
    const denied = shape.forbidden("this operator endpoint needs the admin token as a Bearer token", 401);
    return reply
      .code(denied.statusCode)
      .header("www-authenticate", 'Bearer realm="castnet"')
      .send(denied.body);
  };
}
