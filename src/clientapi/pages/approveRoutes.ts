/**
 * GET /approve?token= shows a signed key request for approval; POST /approve approves it with a
 * development account of the CLI keystore. The POST is for the machine's own developer only: the
 * stack must be served on loopback (the keystore is offered at all), the caller must be on loopback,
 * and the form must come from this very origin (a page of any other site the developer opens is a
 * loopback caller too, and could otherwise post the form to approve its own key).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { normalOrigin } from "../../http/index.js";
import { Keystore } from "../../cli/keystore.js";
import { KeyRequestError, approveKeyRequest } from "../../cli/keyRequest.js";
import { ClientApiError } from "../errors.js";
import type { ClientApiService } from "../service.js";
import { type DevAccount, type KeyRequestView, approvePage } from "./approve.js";
import { html } from "./html.js";
import { pageResponses, sendPage } from "./respond.js";
import type { Sources } from "./sources.js";

export interface ApproveRoutesOptions {
  service: ClientApiService;
  sources: Sources;
  /** The pages' per-client limit (limit.ts). */
  limited: onRequestAsyncHookHandler;
  devKeystoreDir?: string;
  isLoopback: (address: string) => boolean;
}

const token = { type: "string", minLength: 1, maxLength: 200 } as const;
const FORM_LIMIT = 4096;

export const approveRoutes: FastifyPluginAsync<ApproveRoutesOptions> = async (app, options) => {
  const { service, sources } = options;
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_LIMIT },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(body as string)) fields[key] = value;
      done(null, fields);
    },
  );

  const devAccounts = (request: FastifyRequest): DevAccount[] | undefined => {
    if (options.devKeystoreDir === undefined || !options.isLoopback(request.ip)) return undefined;
    const keystore = new Keystore(options.devKeystoreDir);
    return keystore.names().map((name) => ({ name, fid: keystore.get(name).fid }));
  };

  /** The request as the page shows it; undefined when the token is unknown. */
  const view = async (requestToken: string): Promise<KeyRequestView | undefined> => {
    try {
      const json = await service.keyRequests.get(requestToken);
      return { ...json, deadline: await service.keyRequests.deadlineOf(requestToken) };
    } catch (error) {
      if (error instanceof ClientApiError && error.code === "not_found") return undefined;
      throw error;
    }
  };

  const show = async (
    reply: FastifyReply,
    request: FastifyRequest,
    requestToken: string,
    refusal?: { status: number; message: string },
  ) => {
    const found = await view(requestToken);
    if (found === undefined)
      return sendPage(
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
      devAccounts: devAccounts(request),
      refusal: refusal?.message,
    });
    return sendPage(reply, page, refusal?.status ?? 200);
  };

  app.get<{ Querystring: { token: string } }>(
    "/approve",
    {
      onRequest: options.limited,
      schema: {
        summary: "Key approval page",
        description: "A signed key request's app, key, deadline and state, with the ways to approve it.",
        tags: ["Explorer"],
        querystring: {
          type: "object",
          properties: { token },
          required: ["token"],
          additionalProperties: false,
        },
        response: pageResponses({}),
      },
    },
    async (request, reply) => show(reply, request, request.query.token),
  );

  app.post<{ Body: { token: string; account: string } }>(
    "/approve",
    {
      onRequest: options.limited,
      bodyLimit: FORM_LIMIT,
      schema: {
        summary: "Approve with a development account",
        description:
          "Loopback only, from this origin's own page: signs the approval with the keystore account's custody key and posts it to POST /v2/signed-key-request/approval. Answers 303 to the approval page.",
        tags: ["Explorer"],
        consumes: ["application/x-www-form-urlencoded"],
        body: {
          type: "object",
          properties: { token, account: { type: "string", minLength: 1, maxLength: 32 } },
          required: ["token", "account"],
          additionalProperties: false,
        },
        response: {
          303: { description: "Approved: to the approval page, which follows the request.", type: "null" },
          ...pageResponses({
            403: "Not on loopback, not from this origin's page, or development accounts are not offered.",
            409: "Already approved, or expired.",
          }),
        },
      },
    },
    async (request, reply) => {
      const { token: requestToken, account } = request.body;
      const refuse = (status: number, message: string) =>
        show(reply, request, requestToken, { status, message });
      const accounts = devAccounts(request);
      if (accounts === undefined)
        return refuse(
          403,
          "Development accounts approve only on a stack served on loopback, to a caller on the same machine.",
        );
      const own = sources.urls().api;
      const origin = request.headers.origin;
      if (own === undefined || origin === undefined || normalOrigin(origin) !== normalOrigin(own))
        return refuse(
          403,
          "This approval did not come from castnet's own approval page, so it was not made.",
        );
      if (!accounts.some((a) => a.name === account))
        return refuse(400, `The keystore has no account named ${account}.`);
      const stored = new Keystore(options.devKeystoreDir!).get(account);
      try {
        await approveKeyRequest({
          apiUrl: own,
          token: requestToken,
          fid: stored.fid,
          custodyPrivateKey: stored.custodyPrivateKey,
        });
      } catch (error) {
        if (!(error instanceof KeyRequestError)) throw error;
        return refuse(error.status === 409 || error.status === 404 ? error.status : 400, error.message);
      }
      return reply.redirect(`/approve?token=${encodeURIComponent(requestToken)}`, 303);
    },
  );
};
