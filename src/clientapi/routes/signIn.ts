/**
 * The Sign In With Farcaster relay (docs/reference/sign-in.md §1): the reference relay's routes,
 * bodies, statuses and headers, so that `@farcaster/auth-client` pointed at the client API works
 * unchanged. Refusals use the client API's error body.
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { isKey } from "../../storage/index.js";
import { ClientApiError } from "../errors.js";
import type { ClientApiRoutesOptions } from "./options.js";
import * as s from "./schemas.js";

const RELAY_KEY_HEADER = "x-farcaster-auth-relay-key";
/** The reference relay still accepts the header's name from before the flow was renamed. */
const LEGACY_RELAY_KEY_HEADER = "x-farcaster-connect-auth-key";

const text = (maxLength: number) => ({ type: "string", maxLength }) as const;

const channelBody = {
  type: "object",
  properties: {
    siweUri: { type: "string", format: "uri", maxLength: 2048, examples: ["https://example.com/login"] },
    domain: {
      type: "string",
      pattern: "^[a-zA-Z0-9.-]+(:[0-9]+)?$",
      maxLength: 253,
      examples: ["example.com"],
    },
    nonce: { type: "string", maxLength: 256 },
    notBefore: { type: "string", format: "date-time", maxLength: 64 },
    expirationTime: { type: "string", format: "date-time", maxLength: 64 },
    requestId: text(256),
    redirectUrl: text(2048),
    acceptAuthAddress: { type: "boolean" },
  },
  required: ["siweUri", "domain"],
  additionalProperties: false,
} as const;

const authenticateBody = {
  type: "object",
  properties: {
    message: { type: "string", minLength: 1, maxLength: 4096 },
    signature: { type: "string", pattern: "^0x[a-fA-F0-9]{130}$" },
    authMethod: { type: "string", enum: ["custody", "authAddress"] },
    fid: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    username: { type: "string", pattern: "^[a-z0-9][a-z0-9-]{0,15}$|^[a-z0-9][a-z0-9-]{0,15}\\.eth$" },
    bio: text(1024),
    displayName: text(256),
    pfpUrl: { type: "string", format: "uri", maxLength: 2048 },
  },
  required: ["message", "signature", "fid"],
  additionalProperties: false,
} as const;

const signatureParams = {
  type: "object",
  properties: {
    siweUri: { type: "string" },
    domain: { type: "string" },
    nonce: { type: "string" },
    notBefore: { type: "string" },
    expirationTime: { type: "string" },
    requestId: { type: "string" },
    redirectUrl: { type: "string" },
    acceptAuthAddress: { type: "boolean" },
  },
} as const;

/** A channel in the reference's key order; the links only where the reference answers them. */
function channelSchema(withLinks: boolean) {
  return {
    type: "object",
    properties: {
      state: { type: "string", enum: ["pending", "completed"] },
      nonce: { type: "string" },
      ...(withLinks ? { url: { type: "string" }, connectUri: { type: "string" } } : {}),
      acceptAuthAddress: { type: "boolean" },
      signatureParams,
      metadata: {
        type: "object",
        properties: { userAgent: { type: "string" }, ip: { type: "string" } },
      },
      message: { type: "string" },
      signature: { type: "string" },
      authMethod: { type: "string" },
      fid: { type: "integer" },
      username: { type: "string" },
      displayName: { type: "string" },
      bio: { type: "string" },
      pfpUrl: { type: "string" },
      custody: { type: "string" },
      verifications: { type: "array", items: { type: "string" } },
    },
  } as const;
}

const refusals = {
  401: "The channel token is missing, unknown, expired or already delivered; or the relay key is wrong.",
};

/** The channel token of `Authorization: Bearer <channelToken>`. */
function channelToken(request: FastifyRequest): string {
  const match = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? "");
  if (!match)
    throw new ClientApiError(
      "unauthorized",
      "this route needs the sign-in channel's token as a Bearer token (Authorization: Bearer <channelToken>)",
    );
  return match[1]!;
}

export const signInRoutes: FastifyPluginAsync<ClientApiRoutesOptions> = async (
  fastify,
  { service: { signIns }, relayKey },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();

  app.post(
    "/v1/channel",
    {
      schema: {
        summary: "Open a sign-in channel",
        description:
          "An app opens a Sign In With Farcaster channel: its sign-in URI and domain, and optionally the nonce and times the message must carry. The answer's url is where the user approves; the app then polls the channel's status with the channel token.",
        tags: ["Sign in"],
        querystring: s.object({}),
        body: channelBody,
        response: {
          201: {
            type: "object",
            properties: {
              channelToken: { type: "string" },
              url: { type: "string" },
              connectUri: { type: "string" },
              nonce: { type: "string" },
            },
            required: ["channelToken", "url", "connectUri", "nonce"],
          },
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await signIns.open(request.body, { ip: request.ip, userAgent: request.headers["user-agent"] })),
  );

  app.get(
    "/v1/channel/status",
    {
      schema: {
        summary: "A sign-in channel's status",
        description:
          "The channel named by the Bearer token: 202 while the user has not approved, then 200 with the signed message, the fid and the user's profile. The completed answer is given once: the channel is then gone.",
        tags: ["Sign in"],
        querystring: s.object({}),
        response: { 200: channelSchema(false), 202: channelSchema(false) },
      },
      config: { refusals },
    },
    async (request, reply) => {
      const channel = await signIns.status(channelToken(request));
      return reply.code(channel.state === "completed" ? 200 : 202).send(channel);
    },
  );

  app.post(
    "/v1/channel/authenticate",
    {
      onRequest: async (request) => {
        if (relayKey === undefined)
          throw new ClientApiError(
            "unauthorized",
            "this relay has no key configured, so no client app can complete a channel here (start the client API with a relay key)",
          );
        const given = request.headers[RELAY_KEY_HEADER] ?? request.headers[LEGACY_RELAY_KEY_HEADER];
        if (!isKey(relayKey, typeof given === "string" ? given : undefined))
          throw new ClientApiError(
            "unauthorized",
            "this route needs the relay's key in the X-Farcaster-Auth-Relay-Key header",
          );
      },
      schema: {
        summary: "Complete a sign-in channel",
        description:
          "The user's client app completes the channel named by the Bearer token with the sign-in message its user signed, sending the relay's key in X-Farcaster-Auth-Relay-Key. castnet checks the message (the channel's nonce and domain, the signature, the signer as the fid's custody or auth address) before it completes the channel, once.",
        tags: ["Sign in"],
        querystring: s.object({}),
        body: authenticateBody,
        response: { 201: channelSchema(true) },
      },
      config: { refusals },
    },
    async (request, reply) => {
      const { message, signature, fid, authMethod, username, displayName, bio, pfpUrl } = request.body;
      const { channel } = await signIns.complete(channelToken(request), {
        message,
        signature,
        fid,
        authMethod,
        profile: { username, displayName, bio, pfpUrl },
      });
      return reply.code(201).send(channel);
    },
  );
};
