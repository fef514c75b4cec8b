/**
 * RPC authentication for submits (docs/reference/hub-http-api.md §8): `--rpc-auth user:pass[,user:pass…]` (a
 * user may appear with several passwords) makes submitMessage and submitBulkMessages require HTTP Basic
 * credentials, in the Authorization header over HTTP and the `authorization` metadata over gRPC. A name
 * and password are compared as one key, their SHA-256 digests side by side, in one constant-time compare
 * per entry, every entry checked: neither timing nor the answer tells which part was wrong or which entry
 * came close.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { HubError } from "../../protocol/errors.js";

/** SHA-256 of the name ‖ SHA-256 of the password. */
type Credential = Buffer;

function credential(user: string, password: string): Credential {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return Buffer.concat([digest(user), digest(password)]);
}

export function parseRpcAuth(spec: string): Credential[] {
  const credentials = spec.split(",").map((entry) => {
    const colon = entry.indexOf(":");
    if (colon <= 0 || colon === entry.length - 1) {
      throw new Error("rpcAuth must be user:password[,user:password…] with a non-empty user and password");
    }
    return credential(entry.slice(0, colon), entry.slice(colon + 1));
  });
  return credentials;
}

function refuse(reason: string): HubError {
  return new HubError("unauthenticated", `authentication failed: ${reason}`);
}

/** Checks an Authorization header value; throws an unauthenticated HubError when it does not match. */
export type CredentialCheck = (header: string | undefined) => void;

export function basicCredentials(credentials: readonly Credential[]): CredentialCheck {
  return function check(value) {
    const header = value ?? "";
    if (header === "") throw refuse("Authorization header is empty");
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (match === null) throw refuse("Authorization header is not HTTP Basic credentials");
    const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw refuse("Authorization header is not HTTP Basic credentials");
    const presented = credential(decoded.slice(0, colon), decoded.slice(colon + 1));
    let ok = false;
    for (const configured of credentials) if (timingSafeEqual(configured, presented)) ok = true;
    if (!ok) throw refuse("invalid username or password");
  };
}

/**
 * An onRequest hook that checks the Authorization header against the configured credentials, before
 * the request's body is read.
 */
export function basicAuth(credentials: readonly Credential[]) {
  const check = basicCredentials(credentials);
  return async function checkRequest(request: FastifyRequest): Promise<void> {
    check(request.headers.authorization);
  };
}
