/**
 * The sign-in page's routes: GET /sign-in shows a channel; GET /sign-in/message gives the sign-in
 * message a wallet signs for it; POST /sign-in/wallet completes it with the wallet's signature; POST
 * /sign-in/account completes it with a development account of the CLI keystore, for its owner alone
 * (devKeystore.ts). Both completions must come from this origin's page, and both go through the
 * relay's checks (the host's completeSignIn), so nothing signs in without the fid's signature.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { RequestTypesFromSchemas } from "../http/routeTypes.js";
import { SignInMessageError, requestedSignInMessage } from "../protocol/siwf.js";
import {
  type DevKeystore,
  FORM_LIMIT,
  type Refusal,
  acceptForms,
  approvalKeySchema as approvalKey,
  devAccount,
  fromOwnPage,
  keystoreOffer,
} from "./devKeystore.js";
import type { ExplorerHost } from "./host.js";
import { html } from "./html.js";
import { sendHtmlPage } from "./respond.js";
import { type SignInChannelView, signInPage } from "./signIn.js";
import type { Sources } from "./sources.js";

export interface SignInRoutesOptions {
  host: ExplorerHost;
  responses: (refusals: Record<number, string>) => Record<number, object>;
  sources: Sources;
  limited: onRequestAsyncHookHandler;
  devKeystore?: DevKeystore;
}

const channelToken = { type: "string", minLength: 1, maxLength: 200 } as const;
const fid = { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const completedSchema = {
  type: "object",
  properties: { state: { type: "string", enum: ["completed"] }, fid },
  required: ["state", "fid"],
} as const;

export const signInRoutes: FastifyPluginAsync<SignInRoutesOptions> = async (fastify, options) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const { host, sources, responses } = options;
  acceptForms(app);

  const gone = (reply: FastifyReply) =>
    sendHtmlPage(
      reply,
      {
        title: "No such sign-in",
        body: html`<p>
          No open sign-in has this token: it is unknown, its hour is over, or the app already read its answer.
          Ask the app to start a new sign-in.
        </p>`,
      },
      404,
    );

  const show = async (
    reply: FastifyReply,
    request: FastifyRequest,
    token: string,
    key: string | undefined,
    refusal?: Refusal,
  ) => {
    const channel = await host.signInChannel(token);
    if (channel === undefined) return gone(reply);
    const page = signInPage({
      channel,
      hubUrl: sources.urls().hub,
      keystore: keystoreOffer(options.devKeystore, request, key),
      refusal: refusal?.message,
    });
    return sendHtmlPage(reply, page, refusal?.status ?? 200);
  };

  app.get(
    "/sign-in",
    {
      onRequest: options.limited,
      schema: {
        summary: "Sign-in approval page",
        description:
          "A Sign In With Farcaster channel's domain, URI, nonce and closing time, with the ways to sign in: a browser wallet, or a development account of the CLI keystore for its owner.",
        tags: ["Explorer"],
        querystring: {
          type: "object",
          properties: { channelToken, key: approvalKey },
          required: ["channelToken"],
          additionalProperties: false,
        },
        response: responses({}),
      },
    },
    async (request, reply) => show(reply, request, request.query.channelToken, request.query.key),
  );

  app.get(
    "/sign-in/message",
    {
      onRequest: options.limited,
      schema: {
        summary: "The sign-in message to sign",
        description:
          "The sign-in page's script asks here for the message its wallet signs: the channel's domain, URI and nonce, the wallet's address and the fid, as @farcaster/auth-client builds it.",
        tags: ["Explorer"],
        querystring: {
          type: "object",
          properties: {
            channelToken,
            address: { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" },
            fid,
          },
          required: ["channelToken", "address", "fid"],
          additionalProperties: false,
        },
        response: {
          ...responses({ 404: "No open channel has this token." }),
          200: {
            description: "The sign-in message for the wallet to sign.",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: { message: { type: "string" } },
                  required: ["message"],
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const { channelToken: token, address, fid: signer } = request.query;
      const channel = await host.signInChannel(token);
      if (channel === undefined)
        throw host.notFound("no open sign-in channel has this token; ask the app to start a new sign-in");
      if (channel.state === "completed")
        throw host.notFound(`this sign-in is already completed by fid ${channel.fid}`);
      return { message: requestedSignInMessage(channel, address as Address, signer) };
    },
  );

  app.post(
    "/sign-in/wallet",
    {
      onRequest: options.limited,
      bodyLimit: 16_384,
      schema: {
        summary: "Sign in with a wallet's signature",
        description:
          "The sign-in page's script completes the channel with the message its wallet signed (EIP-191 personal_sign) and the fid; the relay checks the message and that its signer is the fid's custody or auth address. Only from this origin's page.",
        tags: ["Explorer"],
        body: {
          type: "object",
          properties: {
            channelToken,
            message: { type: "string", minLength: 1, maxLength: 4096 },
            signature: { type: "string", pattern: "^0x[a-fA-F0-9]{130}$" },
            fid,
          },
          required: ["channelToken", "message", "signature", "fid"],
          additionalProperties: false,
        },
        response: {
          ...responses({
            401: "The channel is unknown, closed or delivered, or the signer does not hold the fid.",
            403: "Not sent by this origin's page.",
            409: "Already completed.",
          }),
          200: {
            description: "The channel, completed.",
            content: { "application/json": { schema: completedSchema } },
          },
        },
      },
    },
    async (request) => {
      if (!fromOwnPage(request, sources.urls().api))
        throw host.forbidden("this sign-in did not come from castnet's own sign-in page, so it was not made");
      const { channelToken: token, message, signature, fid: signer } = request.body;
      const done = await host.completeSignIn(token, { message, signature, fid: signer });
      return { state: "completed" as const, fid: done.fid! };
    },
  );

  app.post(
    "/sign-in/account",
    {
      onRequest: options.limited,
      bodyLimit: FORM_LIMIT,
      schema: {
        summary: "Sign in with a development account",
        description:
          "For the keystore's owner only (a stack on loopback without an admin token, a caller on this machine with no proxy between, the data directory's approval key, this origin's own page): signs the channel's sign-in message with the keystore account's custody key and completes the channel. Answers the page, now completed.",
        tags: ["Explorer"],
        consumes: ["application/x-www-form-urlencoded"],
        body: {
          type: "object",
          properties: {
            channelToken,
            account: { type: "string", minLength: 1, maxLength: 32 },
            key: approvalKey,
          },
          required: ["channelToken", "account"],
          additionalProperties: false,
        },
        response: responses({
          401: "The channel's sign-in was refused by the relay.",
          403: "Development accounts are not offered, the approval key is missing or wrong, or the form is not from this origin's page.",
          409: "Already completed.",
        }),
      },
    },
    async (request, reply) => {
      const { channelToken: token, account, key } = request.body;
      const refuse = (refusal: Refusal) => show(reply, request, token, key, refusal);
      const chosen = devAccount({
        keystore: options.devKeystore,
        request,
        key,
        account,
        own: sources.urls().api,
        keyHint: "open this page with the key= of approval.key in castnet's data directory",
      });
      if ("refusal" in chosen) return refuse(chosen.refusal);
      const channel = await host.signInChannel(token);
      if (channel === undefined) return gone(reply);
      const custody = privateKeyToAccount(chosen.account.custodyPrivateKey);
      let done: SignInChannelView;
      try {
        const message = requestedSignInMessage(channel, custody.address, chosen.account.fid);
        const signature = await custody.signMessage({ message });
        done = await host.completeSignIn(token, { message, signature, fid: chosen.account.fid });
      } catch (error) {
        if (error instanceof SignInMessageError) return refuse({ status: 400, message: error.message });
        if (!host.isRefusal(error)) throw error;
        if (error.statusCode === 401 && (await host.signInChannel(token)) === undefined) return gone(reply);
        return refuse({ status: error.statusCode, message: sentence(error.message) });
      }
      return sendHtmlPage(
        reply,
        signInPage({ channel: done, hubUrl: sources.urls().hub, keystore: undefined }),
      );
    },
  );
};

/** The relay's refusal as the page says it: a sentence. */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
