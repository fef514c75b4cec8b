import { isIP } from "node:net";
import type { onRequestHookHandler } from "fastify";
import type { ErrorShape } from "./errors.js";

/**
 * The Host names a part answers to. DNS rebinding points an attacker's domain name at 127.0.0.1, so
 * that the developer's browser sends the attacker's page's requests to a local part under that
 * name: refusing names the part was not told it serves stops it. IP literals need no DNS and are
 * always accepted (a page on another site calling 127.0.0.1 is plain cross-origin use, which CORS
 * and the operator guard answer); so are `localhost` and `*.localhost`, which browsers resolve to
 * loopback themselves. The port is not compared: behind proxies and port maps it says little.
 * Requests without a Host header (HTTP/1.0) pass: every browser sends one, so no page can make one.
 */
export function hostGuard(
  allowedHosts: readonly string[],
  errors: ErrorShape,
): onRequestHookHandler | undefined {
  if (allowedHosts.includes("*")) return undefined;
  const allowed = new Set(allowedHosts.map(normalName));
  return function checkHost(request, reply, done) {
    const host = request.headers.host;
    if (host === undefined) return done();
    const name = hostName(host);
    if (isIP(name) !== 0 || name === "localhost" || name.endsWith(".localhost") || allowed.has(name))
      return done();
    const refused = errors.badRequest(
      `this server does not answer to the host name ${name}; ` +
        "if it is one of the server's names, list it in --allowed-hosts (CASTNET_ALLOWED_HOSTS)",
      421,
    );
    void reply
      .code(refused.statusCode)
      .headers(refused.headers ?? {})
      .send(refused.body);
  };
}

/** The name in a Host header: without its port, brackets, case or trailing dot. */
function hostName(host: string): string {
  const bracketed = /^\[([^\]]*)\]/.exec(host);
  if (bracketed) return bracketed[1]!.toLowerCase();
  return normalName(host.replace(/:\d*$/, ""));
}

function normalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, "");
}
