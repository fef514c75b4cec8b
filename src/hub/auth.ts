/**
 * RPC authentication for submits (hub-http-api.md §8): `--rpc-auth user:pass[,user:pass…]` (a user
 * may appear with several passwords) makes submitMessage and submitBulkMessages require HTTP Basic
 * credentials. Names and passwords are compared as SHA-256 digests in constant time, every entry
 * checked, so that neither timing nor the answer tells which part was wrong.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { HubError } from "../protocol/errors.js";

interface Credential {
  user: Buffer;
  password: Buffer;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

export function parseRpcAuth(spec: string): Credential[] {
  const credentials = spec.split(",").map((entry) => {
    const colon = entry.indexOf(":");
    if (colon <= 0 || colon === entry.length - 1) {
      throw new Error("rpcAuth must be user:password[,user:password…] with a non-empty user and password");
    }
    return { user: digest(entry.slice(0, colon)), password: digest(entry.slice(colon + 1)) };
  });
  return credentials;
}

function refuse(reason: string): HubError {
  return new HubError("unauthenticated", `authentication failed: ${reason}`);
}

/** A preHandler that checks the Authorization header against the configured credentials. */
export function basicAuth(credentials: readonly Credential[]) {
  return async function check(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization ?? "";
    if (header === "") throw refuse("Authorization header is empty");
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (match === null) throw refuse("Authorization header is not HTTP Basic credentials");
    const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw refuse("Authorization header is not HTTP Basic credentials");
    const user = digest(decoded.slice(0, colon));
    const password = digest(decoded.slice(colon + 1));
    let ok = false;
    for (const credential of credentials) {
      const matches =
        timingSafeEqual(credential.user, user) && timingSafeEqual(credential.password, password);
      ok = ok || matches;
    }
    if (!ok) throw refuse("invalid username or password");
  };
}
