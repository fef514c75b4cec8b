/**
 * Quick Auth's tokens: compact JWS with RS256 (RSASSA-PKCS1-v1_5 over SHA-256) as the reference
 * server signs them (docs/reference/sign-in.md §6), made and checked with node:crypto.
 */
import { type KeyObject, sign, verify } from "node:crypto";

export interface QuickAuthClaims {
  iat: number;
  exp: number;
  iss: string;
  /** The fid, as a JSON number as the reference has it. */
  sub: number;
  aud: string;
}

export interface TokenHeader {
  alg: string;
  typ?: string;
  kid?: string;
}

/** A token that does not read as one of ours, in a sentence that says why. */
export class TokenError extends Error {
  override name = "TokenError";
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

export function signToken(claims: QuickAuthClaims, kid: string, privateKey: KeyObject): string {
  const signingInput = `${base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid }))}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${base64url(sign("sha256", Buffer.from(signingInput), privateKey))}`;
}

export interface ReadToken {
  header: TokenHeader;
  payload: Record<string, unknown>;
  /** Checks the signature with one public key. */
  signedBy(publicKey: KeyObject): boolean;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The token's header and payload, not yet trusted. */
export function readToken(token: string): ReadToken {
  const segments = token.split(".");
  if (segments.length !== 3 || !segments.every((segment) => SEGMENT.test(segment)))
    throw new TokenError("the token is not a JWT: it needs three base64url parts separated by dots");
  const [header, payload, signature] = segments as [string, string, string];
  const headerJson = jsonObject(header, "header");
  if (typeof headerJson.alg !== "string") throw new TokenError("the token's header names no algorithm");
  return {
    header: headerJson as unknown as TokenHeader,
    payload: jsonObject(payload, "payload"),
    signedBy: (publicKey) =>
      verify("sha256", Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, "base64url")),
  };
}

function jsonObject(segment: string, part: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
  } catch {
    throw new TokenError(`the token's ${part} is not JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new TokenError(`the token's ${part} is not a JSON object`);
  return value as Record<string, unknown>;
}
