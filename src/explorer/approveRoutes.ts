/**
 * GET /approve?token= shows a signed key request for approval; POST /approve approves it with a
 * development account of the CLI keystore, for its owner alone (devKeystore.ts says who that is: the
 * approval key travels in the link `castnet key-request create` prints).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import type { RequestTypesFromSchemas } from "../http/routeTypes.js";
import { KeyRequestError, approveKeyRequest } from "../wallet/keyRequestApproval.js";
import { approvePage } from "./approve.js";
import {
  type DevKeystore,
  FORM_LIMIT,
  acceptForms,
  approvalKeySchema as approvalKey,
  devAccount,
  keystoreOffer,
} from "./devKeystore.js";
import { html } from "./html.js";
import type { ExplorerHost } from "./host.js";
import { sendHtmlPage } from "./respond.js";
import type { Sources } from "./sources.js";

const REAL_NETWORK = "yes";

export interface ApproveRoutesOptions {
  keyRequest: ExplorerHost["keyRequest"];
  /** The page routes' documented answers (respond.ts), in the host's error shape. */
  responses: (refusals: Record<number, string>) => Record<number, object>;
  sources: Sources;
  /** The pages' per-client limit (limit.ts). */
  limited: onRequestAsyncHookHandler;
  devKeystore?: DevKeystore;
  /** Approvals are signed under the real network's key gateway domain (`--naming reference`). */
  realNetworkDomain: boolean;
}

const token = { type: "string", minLength: 1, maxLength: 200 } as const;

export const approveRoutes: FastifyPluginAsync<ApproveRoutesOptions> = async (fastify, options) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const { sources, responses } = options;
  acceptForms(app);

  const show = async (
    reply: FastifyReply,
    request: FastifyRequest,
    requestToken: string,
    key: string | undefined,
    refusal?: { status: number; message: string },
  ) => {
    const found = await options.keyRequest(requestToken);
    if (found === undefined)
      return sendHtmlPage(
        reply,
        {
          title: "No such request",
          body: html`<p>
            No signed key request has this token; it may have expired and been deleted. Ask the app for a new
            one.
          </p>`,
        },
        404,
      );
    const page = await approvePage(sources, {
      request: found,
      nowSeconds: Math.floor(Date.now() / 1000),
      keystore: keystoreOffer(options.devKeystore, request, key),
      realNetworkDomain: options.realNetworkDomain,
      refusal: refusal?.message,
    });
    return sendHtmlPage(reply, page, refusal?.status ?? 200);
  };

  app.get(
    "/approve",
    {
      onRequest: options.limited,
      schema: {
        summary: "Key approval page",
        description: "A signed key request's app, key, deadline and state, with the ways to approve it.",
        tags: ["Explorer"],
        querystring: {
          type: "object",
          properties: { token, key: approvalKey },
          required: ["token"],
          additionalProperties: false,
        },
        response: responses({}),
      },
    },
    async (request, reply) => show(reply, request, request.query.token, request.query.key),
  );

  app.post(
    "/approve",
    {
      onRequest: options.limited,
      bodyLimit: FORM_LIMIT,
      schema: {
        summary: "Approve with a development account",
        description:
          "For the keystore's owner only (a stack on loopback without an admin token, a caller on this machine with no proxy between, the data directory's approval key, this origin's own page): signs the approval with the keystore account's custody key and posts it to POST /v2/signed-key-request/approval. Answers 303 to the approval page.",
        tags: ["Explorer"],
        consumes: ["application/x-www-form-urlencoded"],
        body: {
          type: "object",
          properties: {
            token,
            account: { type: "string", minLength: 1, maxLength: 32 },
            key: approvalKey,
            realNetwork: { type: "string", enum: [REAL_NETWORK] },
          },
          required: ["token", "account"],
          additionalProperties: false,
        },
        response: {
          303: { description: "Approved: to the approval page, which follows the request.", type: "null" },
          ...responses({
            403: "Development accounts are not offered, the approval key is missing or wrong, or the form is not from this origin's page.",
            409: "Already approved, or expired.",
          }),
        },
      },
    },
    async (request, reply) => {
      const { token: requestToken, account, key } = request.body;
      const refuse = (status: number, message: string) =>
        show(reply, request, requestToken, key, { status, message });
      const own = sources.urls().api;
      const chosen = devAccount({
        keystore: options.devKeystore,
        request,
        key,
        account,
        own,
        keyHint: "open the link that castnet key-request create printed",
      });
      if ("refusal" in chosen) return refuse(chosen.refusal.status, chosen.refusal.message);
      const stored = chosen.account;
      try {
        await approveKeyRequest({
          apiUrl: own!,
          token: requestToken,
          fid: stored.fid,
          custodyPrivateKey: stored.custodyPrivateKey,
          realNetworkDomain: request.body.realNetwork === REAL_NETWORK,
        });
      } catch (error) {
        if (!(error instanceof KeyRequestError)) throw error;
        return refuse(error.status === 409 || error.status === 404 ? error.status : 400, error.message);
      }
      return reply.redirect(`/approve?token=${encodeURIComponent(requestToken)}`, 303);
    },
  );
};
