import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { KEY_PUBLISHED_AHEAD_SECONDS } from "../signIn/quickAuth.js";
import { operatorRoute } from "./operator.js";
import type { ClientApiRoutesOptions } from "./options.js";
import * as s from "./schemas.js";

const TAGS = ["Quick Auth"];
const string = { type: "string" } as const;
const integer = { type: "integer" } as const;
/** A domain as sign-in messages name it: a host name or address with an optional port. */
const domain = { type: "string", minLength: 1, maxLength: 300, examples: ["example.com"] } as const;

const claims = s.result({ iat: integer, exp: integer, iss: string, sub: integer, aud: string });

/**
 * A cached key set is at most this old, so it holds a new key before that key signs (a key is
 * published KEY_PUBLISHED_AHEAD_SECONDS before it signs).
 */
const KEY_SET_MAX_AGE = KEY_PUBLISHED_AHEAD_SECONDS / 2;

/**
 * The Quick Auth server's routes, at the root of the client API as `@farcaster/quick-auth` calls
 * them for `createClient({ origin })` (docs/reference/sign-in.md §5–§6), and the operator's key
 * rotation. All but the rotation are public: mini apps call them from the browser.
 */
export const quickAuthRoutes: FastifyPluginAsync<ClientApiRoutesOptions> = async (
  fastify,
  { service: { quickAuth }, adminToken },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();

  app.post(
    "/nonce",
    {
      schema: {
        summary: "Quick Auth nonce",
        description:
          "A nonce for one Sign In With Farcaster message, good for five minutes and one sign-in (quick-auth's generateNonce).",
        tags: TAGS,
        querystring: s.object({}),
        response: { 200: s.result({ nonce: string }) },
      },
    },
    async (request) => ({ nonce: await quickAuth.nonce(request.ip) }),
  );

  app.post(
    "/verify-siwf",
    {
      schema: {
        summary: "Sign in for a token",
        description:
          "Checks a signed Sign In With Farcaster message (its nonce one of this server's, its domain the one given, its signer the fid's custody address or an auth address) and answers a JWT for the fid, valid for an hour (quick-auth's verifySiwf). The nonce is spent even when the signature is refused.",
        tags: TAGS,
        querystring: s.object({}),
        body: s.object(
          {
            message: { type: "string", minLength: 1, maxLength: 8192 },
            signature: { type: "string", maxLength: 300 },
            domain,
            acceptAuthAddress: { type: "boolean" },
          },
          ["message", "signature", "domain"],
        ),
        response: { 200: s.result({ valid: { type: "boolean", const: true }, token: string }) },
      },
      config: { refusals: { 401: "The message's signer is not the fid's custody address or auth address." } },
    },
    async (request) => ({ valid: true, token: await quickAuth.verifySiwf(request.body) }),
  );

  app.get(
    "/verify-jwt",
    {
      schema: {
        summary: "Check a token",
        description:
          "The claims of a token this server issued for the domain, if its signature, issuer, audience and lifetime hold (quick-auth's verifyJwtWithEndpoint); a 400 says why not.",
        tags: TAGS,
        querystring: s.object({ token: { type: "string", minLength: 1, maxLength: 4096 }, domain }, [
          "token",
          "domain",
        ]),
        response: { 200: claims },
      },
    },
    async (request) => quickAuth.verifyToken(request.query.token, request.query.domain),
  );

  app.get(
    "/.well-known/jwks.json",
    {
      schema: {
        summary: "Quick Auth key set",
        description:
          "The public keys of Quick Auth's tokens as a JSON Web Key Set: the signing key, a new key about to sign, and retired keys until their last token expires.",
        tags: TAGS,
        querystring: s.object({}),
        response: {
          200: s.result({
            keys: {
              type: "array",
              items: s.result({ kty: string, n: string, e: string, kid: string, alg: string, use: string }),
            },
          }),
        },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", `public, max-age=${KEY_SET_MAX_AGE}`);
      return { keys: await quickAuth.keySet() };
    },
  );

  app.get(
    "/.well-known/openid-configuration",
    {
      schema: {
        summary: "Quick Auth issuer",
        description:
          "The issuer Quick Auth's tokens name (this client API's public URL) and where its key set is.",
        tags: TAGS,
        querystring: s.object({}),
        response: { 200: s.result({ issuer: string, jwks_uri: string }) },
      },
    },
    async () => quickAuth.discovery(),
  );

  app.post(
    "/v1/quick-auth/keys/rotate",
    operatorRoute(adminToken)({
      summary: "Rotate the Quick Auth key",
      description:
        "Operator: makes a new signing key, published at once and signing a minute later; the old key signs until then and stays in the key set until its last token has expired (an hour).",
      tags: TAGS,
      response: s.envelope(
        s.result({
          keys: {
            type: "array",
            items: s.result({ kid: string, signsFrom: integer, retiredAt: integer }, ["kid", "signsFrom"]),
          },
        }),
      ),
    }),
    async () => ({ result: { keys: await quickAuth.rotate() } }),
  );
};
