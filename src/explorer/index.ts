/**
 * The explorer and the approval pages (key requests and sign-ins), served by the client API at `/` on its port: HTML made on
 * the server from the parts' public HTTP APIs, working without JavaScript; /assets/app.js only adds
 * live updates and wallet approval. Every answer carries a Content-Security-Policy that allows no
 * inline script and no resource from elsewhere but the hub's event stream and https images.
 */
import type { FastifyError, FastifyPluginAsync, FastifyReply } from "fastify";
import { describeValidationFailure } from "../http/validation.js";
import type { RequestTypesFromSchemas } from "../http/routeTypes.js";
import { approveRoutes } from "./approveRoutes.js";
import type { DevKeystore } from "./devKeystore.js";
import { assetRoutes } from "./assets.js";
import { avatarSvg } from "./avatar.js";
import { channelPage } from "./channel.js";
import { channelsPage } from "./channels.js";
import { castPage } from "./cast.js";
import { EVENT_TYPES, type EventsQuery, eventsPage } from "./events.js";
import { fidPage } from "./fid.js";
import { homePage } from "./home.js";
import { html } from "./html.js";
import { type PageLimits, pageLimit } from "./limit.js";
import { namePage } from "./name.js";
import type { ExplorerHost } from "./host.js";
import { pageResponses, sendHtmlPage } from "./respond.js";
import { searchTarget } from "./search.js";
import { signInRoutes } from "./signInRoutes.js";
import { PageRefusal, PartUnavailable, type PartUrls, type Sources, partSources } from "./sources.js";

export type { PartUrls } from "./sources.js";
export type { DevKeystore } from "./devKeystore.js";

export type { ExplorerHost } from "./host.js";
export type { KeyRequestView } from "./approve.js";
export type { SignInChannelView, SignInCompletion } from "./signIn.js";
export { DEFAULT_PAGE_LIMITS, type PageLimits } from "./limit.js";

export interface ExplorerOptions {
  host: ExplorerHost;
  /** The parts' base URLs as configured; `api` is this part's own public URL. */
  urls: () => PartUrls;
  /** The CLI keystore whose accounts may approve, and its approval key: given only when served on loopback. */
  devKeystore?: DevKeystore;
  /** Approvals are signed under the real network's key gateway domain (`--naming reference`). */
  realNetworkDomain: boolean;
  /** Pages one client address may load (limit.ts). */
  limits: PageLimits;
  /** Unix ms. */
  now: () => number;
}

const notFoundPage = (reply: FastifyReply, what: string) =>
  sendHtmlPage(
    reply,
    {
      title: "Not found",
      body: html`<p>${what}</p>
        <p><a href="/">Back to the explorer</a></p>`,
    },
    404,
  );

function securityHeaders(urls: () => PartUrls): Record<string, string> {
  let hub = "";
  try {
    hub = urls().hub === undefined ? "" : ` ${new URL(urls().hub!).origin}`;
  } catch {
    hub = "";
  }
  return {
    "content-security-policy":
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https:; connect-src 'self'${hub}; ` +
      "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
  };
}

/** Routes of files the pages load, and the JSON routes of their script: not pages. */
const FILE_ROUTES = new Set(["/assets/:file", "/avatars/:fid.svg", "/sign-in/message", "/sign-in/wallet"]);

const fid = { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
/** No query parameters: an unknown one is refused, as everywhere in the client API. */
const NO_QUERY = { type: "object", properties: {}, additionalProperties: false } as const;
/** A closed object; the type parameters keep the schema's literal types, from which the route's request types are made. */
const closed = <
  const P extends Record<string, object>,
  const R extends readonly (keyof P & string)[] = readonly [],
>(
  properties: P,
  // Omitted, the list is the empty one, R's default (a default value cannot be typed by a type parameter's default).
  required: R = [] as never,
) => ({ type: "object", properties, required, additionalProperties: false }) as const;

export const explorerPages: FastifyPluginAsync<ExplorerOptions> = async (fastify, options) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const sources: Sources = partSources(options.urls);
  // Pages are for people, not for other sites' scripts: no CORS headers (@fastify/cors skips routes so marked).
  app.addHook("onRoute", (route) => {
    route.config = { ...route.config, cors: false };
  });
  const limited = pageLimit(options.limits, options.now);
  const responses = (refusals: Record<number, string>) => pageResponses(options.host.errorSchema, refusals);
  app.addHook("onSend", async (_request, reply) => {
    reply.headers(securityHeaders(options.urls));
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A page's address the route's schema refuses (a mistyped cast URL, say) is a page too, for the
    // browser that asked; the files pages load (assets, avatars) and the JSON their script reads
    // keep the server's error shape.
    if (error.validation && !FILE_ROUTES.has(request.routeOptions.url ?? ""))
      return sendHtmlPage(
        reply,
        {
          title: "Bad request",
          body: html`<p>
              This address is not one the explorer has a page for:
              ${describeValidationFailure(error.validationContext ?? "request", error.validation)}.
            </p>
            <p><a href="/">Back to the explorer</a></p>`,
        },
        400,
      );
    if (error instanceof PageRefusal)
      return sendHtmlPage(reply, { title: "Bad request", body: html`<p>${error.message}</p>` }, 400);
    if (!(error instanceof PartUnavailable)) throw error;
    return sendHtmlPage(
      reply,
      { title: "Unavailable", body: html`<p>${error.message}; try again shortly.</p>` },
      503,
    );
  });
  const tags = ["Explorer"];

  app.get(
    "/",
    {
      onRequest: limited,
      schema: {
        summary: "Explorer home",
        description: "The stack's parts, counts, latest casts and the live event feed.",
        tags,
        querystring: NO_QUERY,
        response: responses({}),
      },
    },
    async (_request, reply) => sendHtmlPage(reply, await homePage(sources, options.now)),
  );

  app.get(
    "/fid/:fid",
    {
      onRequest: limited,
      schema: {
        summary: "A fid's page",
        description:
          "Custody, signers, storage, names, profile, verifications, casts, reactions, follows, channels, power badge.",
        tags,
        params: closed({ fid }, ["fid"]),
        querystring: closed({ casts: { type: "string", minLength: 1, maxLength: 256 } }),
        response: responses({}),
      },
    },
    async (request, reply) => {
      const page = await fidPage(sources, request.params.fid, request.query.casts);
      return page
        ? sendHtmlPage(reply, page)
        : notFoundPage(reply, `No fid ${request.params.fid} is registered.`);
    },
  );

  app.get(
    "/cast/:fid/:hash",
    {
      onRequest: limited,
      schema: {
        summary: "A cast's page",
        description: "The cast, its parent and replies, reactions and recasts, the raw message.",
        tags,
        querystring: NO_QUERY,
        params: closed({ fid, hash: { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" } }, ["fid", "hash"]),
        response: responses({}),
      },
    },
    async (request, reply) => {
      const { fid: author, hash } = request.params;
      const page = await castPage(sources, author, hash.toLowerCase());
      return page
        ? sendHtmlPage(reply, page)
        : notFoundPage(reply, `The hub holds no cast ${hash} by fid ${author}.`);
    },
  );

  app.get(
    "/name/:name",
    {
      onRequest: limited,
      schema: {
        summary: "A name's page",
        description:
          "The name's current owner and its whole transfer history with the registry's signatures.",
        tags,
        querystring: NO_QUERY,
        params: closed({ name: { type: "string", minLength: 1, maxLength: 64 } }, ["name"]),
        response: responses({}),
      },
    },
    async (request, reply) => {
      const page = await namePage(sources, request.params.name);
      return page
        ? sendHtmlPage(reply, page)
        : notFoundPage(reply, `The registry has never held the name ${request.params.name}.`);
    },
  );

  app.get(
    "/channel/:id",
    {
      onRequest: limited,
      schema: {
        summary: "A channel's page",
        description: "The channel's fields, its followers and the casts under its parent URL.",
        tags,
        querystring: NO_QUERY,
        params: closed({ id: { type: "string", minLength: 1, maxLength: 64 } }, ["id"]),
        response: responses({}),
      },
    },
    async (request, reply) => {
      const page = await channelPage(sources, request.params.id);
      return page
        ? sendHtmlPage(reply, page)
        : notFoundPage(reply, `There is no channel ${request.params.id}.`);
    },
  );

  app.get(
    "/channels",
    {
      onRequest: limited,
      schema: {
        summary: "Channels page",
        description: "Every channel of the client API, most followed first, each linked to its page.",
        tags,
        querystring: NO_QUERY,
        response: responses({}),
      },
    },
    async (_request, reply) => sendHtmlPage(reply, await channelsPage(sources)),
  );

  app.get(
    "/avatars/:fid.svg",
    {
      schema: {
        summary: "A generated avatar",
        description:
          "A small picture made from the fid alone, the same on every stack: the demo world's profile pictures, and the pages' picture of anyone without one.",
        tags,
        querystring: NO_QUERY,
        params: closed({ fid }, ["fid"]),
        response: {
          200: { description: "The picture.", content: { "image/svg+xml": { schema: { type: "string" } } } },
        },
      },
    },
    async (request, reply) =>
      reply
        .type("image/svg+xml")
        // Made from the fid alone: a browser may keep it a day without asking again.
        .header("cache-control", "public, max-age=86400")
        .send(avatarSvg(request.params.fid)),
  );

  app.get(
    "/events",
    {
      onRequest: limited,
      schema: {
        summary: "Hub events page",
        description:
          "The hub's event log said in words, filtered by type and fid: the newest first under the live feed, older ones 100 at a time (before an event id), or a page from an event id on.",
        tags,
        querystring: closed({
          from: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
          before: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
          type: { type: "string", enum: ["", ...EVENT_TYPES] },
          // The filter form sends an empty fid when none is typed.
          fid: { type: "string", pattern: "^([1-9][0-9]{0,14})?$" },
        }),
        response: responses({}),
      },
    },
    async (request, reply) => {
      const { from, before, type, fid: author } = request.query;
      const query: EventsQuery = {
        from,
        before,
        type: type === "" ? undefined : type,
        fid: author === undefined || author === "" ? undefined : Number(author),
      };
      return sendHtmlPage(reply, await eventsPage(sources, query, options.now));
    },
  );

  app.get(
    "/search",
    {
      onRequest: limited,
      schema: {
        summary: "Search",
        description: "Sends the browser to the page of a fid, a name, a cast hash or an address.",
        tags,
        querystring: closed({ q: { type: "string", minLength: 1, maxLength: 200 } }, ["q"]),
        response: { 303: { description: "To the page found.", type: "null" }, ...responses({}) },
      },
    },
    async (request, reply) => {
      const target = await searchTarget(sources, request.query.q);
      if (target !== undefined) return reply.redirect(target, 303);
      return notFoundPage(
        reply,
        `Nothing matches “${request.query.q}”: try a fid, a name, a cast hash or an address.`,
      );
    },
  );

  await app.register(approveRoutes, {
    keyRequest: options.host.keyRequest,
    responses,
    sources,
    limited,
    devKeystore: options.devKeystore,
    realNetworkDomain: options.realNetworkDomain,
  });
  await app.register(signInRoutes, {
    host: options.host,
    responses,
    sources,
    limited,
    devKeystore: options.devKeystore,
  });
  await app.register(assetRoutes, { notFound: options.host.notFound });
};
