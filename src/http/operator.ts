import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import type { ErrorShape } from "./errors.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Origins, besides a request's own, whose pages may call operator routes (HttpOptions.trustedOrigins). */
    trustedOrigins: ReadonlySet<string>;
  }
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

export function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

/** Headers a forwarding proxy adds: a request that carries one came from further away than its socket. */
const PROXY_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-real-ip",
  "x-client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "via",
];

/**
 * Whether a request comes from a process on this machine rather than through it: a loopback socket
 * and no sign of a forwarding proxy in front of it (behind one on the same host, every internet client
 * arrives from loopback). Other local users pass too: this says where, never who.
 */
export function isMachineLocal(request: { ip: string; headers: Record<string, unknown> }): boolean {
  return isLoopback(request.ip) && !PROXY_HEADERS.some((name) => request.headers[name] !== undefined);
}

/** An origin in the one spelling browsers send (lowercase, default port left out); undefined if it is none. */
export function normalOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === "null" ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/** The guards operatorGuard made: how the server knows a route is an operator route. */
const guards = new WeakSet<object>();

export function isOperatorGuard(hook: unknown): boolean {
  return typeof hook === "function" && guards.has(hook);
}

const CORS_HEADERS = ["access-control-allow-origin", "access-control-expose-headers"];

/**
 * The one rule for operator routes in every part, run as an onRequest hook so that nothing of a
 * refused request's body is read. A request sent by a web page (it carries an Origin header) is
 * refused unless the page is the part's own (the request's scheme and Host) or of a trusted origin:
 * a page of any other site in the developer's browser is a loopback caller, and must not be able to
 * write. Operator routes take part in no CORS, so a browser never lets another origin read them.
 * Then, with no admin token configured, writes are accepted from loopback addresses only; with one,
 * they need it as a Bearer token, from anywhere. Tokens are compared as SHA-256 digests in constant
 * time, so neither their content nor their length leaks.
 */
export function operatorGuard(adminToken: string | undefined, shape: ErrorShape): onRequestAsyncHookHandler {
  const refusalOf = operatorRefusal(adminToken);
  async function guard(request: FastifyRequest, reply: FastifyReply) {
    for (const name of CORS_HEADERS) reply.removeHeader(name);
    const refusal = refusalOf(request);
    if (refusal === undefined) return;
    if (refusal.status === 401) reply.header("www-authenticate", 'Bearer realm="castnet"');
    const denied = shape.forbidden(refusal.message, refusal.status);
    return reply.code(denied.statusCode).send(denied.body);
  }
  guards.add(guard);
  return guard;
}

/** Why a request may not do an operator's work (operatorGuard's rule), or undefined when it may. */
export function operatorRefusal(
  adminToken: string | undefined,
): (request: FastifyRequest) => { message: string; status: 401 | 403 } | undefined {
  const expected = adminToken ? digest(adminToken) : undefined;
  return (request) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !fromOwnOrigin(request, origin))
      return {
        message:
          `operator routes refuse requests sent by web pages of other origins (Origin: ${origin}); ` +
          "call them from outside a browser, or from a page of an origin listed in --trusted-origins",
        status: 403,
      };
    if (!expected) {
      if (isLoopback(request.ip)) return undefined;
      return {
        message:
          "operator writes are accepted from loopback addresses only (start castnet with --admin-token to allow others)",
        status: 403,
      };
    }
    const header = request.headers.authorization ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (match?.[1] && timingSafeEqual(digest(match[1].trim()), expected)) return undefined;
    return { message: "this operator endpoint needs the admin token as a Bearer token", status: 401 };
  };
}

function fromOwnOrigin(request: FastifyRequest, origin: string): boolean {
  const page = normalOrigin(origin);
  if (page === undefined) return false;
  const host = request.headers.host;
  if (host !== undefined && page === normalOrigin(`${request.protocol}://${host}`)) return true;
  return request.server.trustedOrigins.has(page);
}
