import type { FastifyInstance } from "fastify";
import { operatorGuard } from "../http/index.js";
import type { NewAction } from "./actions.js";
import type { ChannelFields, NewChannel } from "./channels.js";
import { clientApiErrors } from "./errors.js";
import * as s from "./schemas.js";
import type { ClientApiService } from "./service.js";

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: "null" }] });
const text = (maxLength: number) => ({ type: "string", minLength: 1, maxLength });
const url = text(2048);
const fidList = { type: "array", items: s.fid, maxItems: 1000 };

const optionalChannelFields = {
  description: nullable(text(1024)),
  descriptionMentions: nullable(fidList),
  descriptionMentionsPositions: nullable({ type: "array", items: s.count, maxItems: 1000 }),
  headerImageUrl: nullable(url),
  leadFid: nullable(s.fid),
  moderatorFid: nullable(s.fid),
  moderatorFids: nullable(fidList),
  memberCount: nullable(s.count),
  pinnedCastHash: nullable(text(42)),
  publicCasting: nullable({ type: "boolean" }),
  externalLink: nullable(s.object({ title: text(100), url }, ["title", "url"])),
};
const requiredChannelFields = { url, name: text(64), imageUrl: url };

const params = (properties: Record<string, unknown>) => s.object(properties, Object.keys(properties));
const channelParams = params({ channelId: s.channelId });
const followParams = params({ channelId: s.channelId, fid: s.fid });
const blockParams = params({ blockerFid: s.fid, blockedFid: s.fid });
const actionParams = params({ actionId: s.fid });
const installParams = params({ actionId: s.fid, fid: s.fid });
const fidParams = params({ fid: s.fid });

const channelReply = s.envelope(s.result({ channel: s.channel }));
const actionReply = s.envelope(s.result({ action: s.actionRecord }));
const sponsorReply = s.envelope(
  s.result({ sponsor: s.result({ fid: { type: "integer" }, credits: { type: "integer" } }) }),
);
const run = {
  type: "object",
  properties: {
    slot: { type: ["integer", "null"] },
    ranAt: { type: "integer" },
    computedCount: { type: "integer" },
  },
  required: ["slot", "ranAt", "computedCount"],
};
const fidArray = { type: "array", items: { type: "integer" } };
const badgeStateReply = s.envelope(
  s.result({
    holders: fidArray,
    rule: s.result({ minReactors: { type: "integer" }, windowDays: { type: "integer" } }),
    computed: fidArray,
    grants: fidArray,
    revocations: fidArray,
    lastRun: { anyOf: [run, { type: "null" }] },
    nextRun: { type: "integer" },
  }),
);

type Params<T> = { Params: T };

/** Operator writes under /v1/admin (docs/clientapi.md): loopback only, or the admin token as a Bearer token. */
export function operatorRoutes(service: ClientApiService, adminToken: string | undefined) {
  const { directory, powerBadges } = service;
  return async function plugin(app: FastifyInstance): Promise<void> {
    // Before the body is even parsed: a caller without the right to write learns nothing about its input.
    const guard = operatorGuard(adminToken, clientApiErrors);
    app.addHook("onRoute", (route) => {
      route.onRequest = guard;
      // No operator route takes query parameters, so any sent are a mistake worth a 400.
      route.schema = { querystring: s.object({}), ...route.schema };
    });

    app.post<{ Body: NewChannel }>(
      "/v1/admin/channels",
      {
        schema: {
          body: s.object(
            { id: s.channelId, ...requiredChannelFields, ...optionalChannelFields, createdAt: s.unixSeconds },
            ["id", ...Object.keys(requiredChannelFields)],
          ),
          response: s.envelope(s.result({ channel: s.channel }), false, 201),
        },
      },
      async (request, reply) =>
        reply.code(201).send({ result: { channel: await directory.createChannel(request.body) } }),
    );

    app.patch<Params<{ channelId: string }> & { Body: Partial<ChannelFields> }>(
      "/v1/admin/channels/:channelId",
      {
        schema: {
          params: channelParams,
          body: { ...s.object({ ...requiredChannelFields, ...optionalChannelFields }), minProperties: 1 },
          response: channelReply,
        },
      },
      async (request) => ({
        result: { channel: await directory.updateChannel(request.params.channelId, request.body) },
      }),
    );

    const followReply = s.envelope(
      s.result({ following: { type: "boolean" }, followedAt: { type: "integer" } }, ["following"]),
    );
    app.put<Params<{ channelId: string; fid: number }> & { Body: { followedAt?: number } | undefined }>(
      "/v1/admin/channels/:channelId/followers/:fid",
      {
        schema: {
          params: followParams,
          body: s.object({ followedAt: s.unixSeconds }),
          response: followReply,
        },
      },
      async (request) => ({
        result: await directory.follow(
          request.params.channelId,
          request.params.fid,
          request.body?.followedAt,
        ),
      }),
    );

    app.delete<Params<{ channelId: string; fid: number }>>(
      "/v1/admin/channels/:channelId/followers/:fid",
      { schema: { params: followParams, response: followReply } },
      async (request) => ({ result: await directory.unfollow(request.params.channelId, request.params.fid) }),
    );

    app.put<
      Params<{ blockerFid: number; blockedFid: number }> & { Body: { createdAt?: number } | undefined }
    >(
      "/v1/admin/blocks/:blockerFid/:blockedFid",
      {
        schema: {
          params: blockParams,
          body: s.object({ createdAt: s.unixSeconds }),
          response: s.envelope(s.result({ blockedUser: s.blockedUser })),
        },
      },
      async (request) => ({
        result: {
          blockedUser: await directory.block(
            request.params.blockerFid,
            request.params.blockedFid,
            request.body?.createdAt,
          ),
        },
      }),
    );

    app.delete<Params<{ blockerFid: number; blockedFid: number }>>(
      "/v1/admin/blocks/:blockerFid/:blockedFid",
      { schema: { params: blockParams, response: s.envelope(s.result({ blocked: { type: "boolean" } })) } },
      async (request) => ({
        result: await directory.unblock(request.params.blockerFid, request.params.blockedFid),
      }),
    );

    app.get(
      "/v1/admin/actions",
      { schema: { response: s.envelope(s.result({ actions: { type: "array", items: s.actionRecord } })) } },
      async () => ({ result: { actions: await directory.actions() } }),
    );

    app.post<{ Body: NewAction }>(
      "/v1/admin/actions",
      {
        schema: {
          body: s.object(
            {
              type: { type: "string", enum: ["cast", "composer"] },
              name: text(30),
              icon: { type: "string", maxLength: 40 },
              description: text(80),
              aboutUrl: url,
              actionUrl: url,
              postUrl: url,
              imageUrl: url,
            },
            ["type", "name", "icon", "description", "aboutUrl", "actionUrl"],
          ),
          response: s.envelope(s.result({ action: s.actionRecord }), false, 201),
        },
      },
      async (request, reply) =>
        reply.code(201).send({ result: { action: await directory.registerAction(request.body) } }),
    );

    app.put<Params<{ actionId: number; fid: number }>>(
      "/v1/admin/actions/:actionId/installs/:fid",
      { schema: { params: installParams, response: actionReply } },
      async (request) => ({
        result: { action: await directory.install(request.params.actionId, request.params.fid) },
      }),
    );

    app.delete<Params<{ actionId: number; fid: number }>>(
      "/v1/admin/actions/:actionId/installs/:fid",
      { schema: { params: installParams, response: actionReply } },
      async (request) => ({
        result: { action: await directory.uninstall(request.params.actionId, request.params.fid) },
      }),
    );

    app.put<Params<{ actionId: number }> & { Body: { rank?: number } | undefined }>(
      "/v1/admin/actions/:actionId/featured",
      {
        schema: {
          params: actionParams,
          body: s.object({ rank: { type: "integer", minimum: 1, maximum: 1_000_000 } }),
          response: actionReply,
        },
      },
      async (request) => ({
        result: { action: await directory.feature(request.params.actionId, request.body?.rank) },
      }),
    );

    app.delete<Params<{ actionId: number }>>(
      "/v1/admin/actions/:actionId/featured",
      { schema: { params: actionParams, response: actionReply } },
      async (request) => ({ result: { action: await directory.unfeature(request.params.actionId) } }),
    );

    app.get("/v1/admin/power-badges", { schema: { response: badgeStateReply } }, async () => ({
      result: await powerBadges.state(),
    }));

    app.put<Params<{ fid: number }> & { Body: { badge: "grant" | "revoke" } }>(
      "/v1/admin/power-badges/:fid",
      {
        schema: {
          params: fidParams,
          body: s.object({ badge: { type: "string", enum: ["grant", "revoke"] } }, ["badge"]),
          response: badgeStateReply,
        },
      },
      async (request) => {
        if (request.body.badge === "grant") await powerBadges.grant(request.params.fid);
        else await powerBadges.revoke(request.params.fid);
        return { result: await powerBadges.state() };
      },
    );

    app.delete<Params<{ fid: number }>>(
      "/v1/admin/power-badges/:fid",
      { schema: { params: fidParams, response: badgeStateReply } },
      async (request) => {
        await powerBadges.clearOverride(request.params.fid);
        return { result: await powerBadges.state() };
      },
    );

    app.post(
      "/v1/admin/power-badges/recalculate",
      { schema: { response: s.envelope(s.result({ run })) } },
      async () => ({ result: { run: await powerBadges.recalculate() } }),
    );

    app.get<Params<{ fid: number }>>(
      "/v1/admin/sponsors/:fid",
      { schema: { params: fidParams, response: sponsorReply } },
      async (request) => ({ result: { sponsor: await directory.sponsor(request.params.fid) } }),
    );

    app.put<Params<{ fid: number }> & { Body: { credits: number } }>(
      "/v1/admin/sponsors/:fid",
      {
        schema: {
          params: fidParams,
          body: s.object({ credits: s.count }, ["credits"]),
          response: sponsorReply,
        },
      },
      async (request) => ({
        result: { sponsor: await directory.setSponsorCredits(request.params.fid, request.body.credits) },
      }),
    );
  };
}
