import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { sendJson } from "../../http/index.js";
import { operatorRoute, params } from "./operator.js";
import type { ClientApiRoutesOptions } from "./options.js";
import { pagedJson } from "./paged.js";
import * as s from "./schemas.js";

const nullable = <const S extends object>(schema: S) => ({ anyOf: [schema, { type: "null" }] }) as const;
const fidList = { type: "array", items: s.fid, maxItems: 1000 } as const;

const optionalChannelFields = {
  description: nullable(s.text(1024)),
  descriptionMentions: nullable(fidList),
  descriptionMentionsPositions: nullable({ type: "array", items: s.count, maxItems: 1000 }),
  headerImageUrl: nullable(s.url),
  leadFid: nullable(s.fid),
  moderatorFid: nullable(s.fid),
  moderatorFids: nullable(fidList),
  memberCount: nullable(s.count),
  pinnedCastHash: nullable(s.text(42)),
  publicCasting: nullable({ type: "boolean" }),
  externalLink: nullable(s.object({ title: s.text(100), url: s.url }, ["title", "url"])),
};
const requiredChannelFields = { url: s.url, name: s.text(64), imageUrl: s.url };

const channelReply = s.envelope(s.result({ channel: s.channel }));
const followReply = s.envelope(
  s.result({ following: { type: "boolean" }, followedAt: { type: "integer" } }, ["following"]),
);

/** Channels and their followers: the public reads and the operator's writes. */
export const channelRoutes: FastifyPluginAsync<ClientApiRoutesOptions> = async (
  fastify,
  { service: { channels, follows }, adminToken },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const operator = operatorRoute(adminToken);

  app.get(
    "/v2/all-channels",
    {
      schema: {
        summary: "All channels",
        description: "Every channel, with its URL, lead, moderators and follower count.",
        "x-spec": "SPEC B. Channel, SPEC B. Client API",
        tags: ["Channels"],
        querystring: s.object({}),
        response: s.envelope(s.result({ channels: { type: "array", items: s.channel } })),
      },
    },
    async () => ({ result: { channels: await channels.all() } }),
  );

  app.get(
    "/v1/channel",
    {
      schema: {
        summary: "Channel by id",
        description: "One channel, by its id.",
        "x-spec": "SPEC B. Channel",
        tags: ["Channels"],
        querystring: s.object({ channelId: s.channelId }, ["channelId"]),
        response: channelReply,
      },
    },
    async (request) => ({ result: { channel: await channels.get(request.query.channelId) } }),
  );

  app.get(
    "/v1/channel-followers",
    {
      schema: {
        summary: "Channel followers",
        description:
          "A channel's followers, newest first, with when each followed; the deprecated `fids` field lists the same fids.",
        "x-spec": "SPEC B. Client API, SPEC Errors 4, SPEC Versioning 4",
        tags: ["Channel follows"],
        querystring: s.object({ channelId: s.channelId, ...s.paging }, ["channelId"]),
        response: s.envelope(
          s.result({
            users: {
              type: "array",
              items: s.result({ fid: { type: "integer" }, followedAt: { type: "integer" } }),
            },
            // Deprecated by the reference in favour of users; same fids, same order.
            fids: { type: "array", items: { type: "integer" } },
          }),
          true,
        ),
      },
    },
    async (request, reply) => {
      const { fid, followedAt, next } = await follows.followers(request.query.channelId, request.query);
      let users = "";
      for (let i = 0; i < fid.length; i++)
        users += `${i === 0 ? "" : ","}{"fid":${fid[i]},"followedAt":${followedAt[i]}}`;
      return sendJson(reply, pagedJson(next, `{"users":[${users}],"fids":[${fid.join(",")}]}`));
    },
  );

  app.get(
    "/v1/user-following-channels",
    {
      schema: {
        summary: "Channels a fid follows",
        description: "The channels a fid follows.",
        "x-spec": "SPEC B. Client API",
        tags: ["Channel follows"],
        querystring: s.object({ fid: s.fid, ...s.paging }, ["fid"]),
        response: s.envelope(s.result({ channels: { type: "array", items: s.followedChannel } }), true),
      },
    },
    async (request, reply) => {
      const { channelJson, followedAt, next } = await follows.followedChannels(
        request.query.fid,
        request.query,
      );
      // followedAt is the schema's last property: it goes where the channel's text closes.
      let channels = "";
      for (let i = 0; i < channelJson.length; i++)
        channels += `${i === 0 ? "" : ","}${channelJson[i]!.slice(0, -1)},"followedAt":${followedAt[i]}}`;
      return sendJson(reply, pagedJson(next, `{"channels":[${channels}]}`));
    },
  );

  app.get(
    "/v1/user-channel",
    {
      schema: {
        summary: "Whether a fid follows a channel",
        description: "One fid's follow of one channel.",
        "x-spec": "SPEC B. Client API",
        tags: ["Channel follows"],
        querystring: s.object({ fid: s.fid, channelId: s.channelId }, ["fid", "channelId"]),
        response: followReply,
      },
    },
    async (request) => ({ result: await follows.status(request.query.fid, request.query.channelId) }),
  );

  app.post(
    "/v1/admin/channels",
    operator({
      summary: "Create a channel",
      description: "Operator: adds a channel (SPEC B. Channel).",
      tags: ["Channels"],
      body: s.object(
        { id: s.channelId, ...requiredChannelFields, ...optionalChannelFields, createdAt: s.unixSeconds },
        ["id", ...(Object.keys(requiredChannelFields) as (keyof typeof requiredChannelFields)[])],
      ),
      response: s.envelope(s.result({ channel: s.channel }), false, 201),
    }),
    async (request, reply) =>
      reply.code(201).send({ result: { channel: await channels.create(request.body) } }),
  );

  app.patch(
    "/v1/admin/channels/:channelId",
    operator({
      summary: "Change a channel",
      description: "Operator: changes a channel's fields (SPEC B. Channel).",
      tags: ["Channels"],
      params: params({ channelId: s.channelId }),
      body: { ...s.object({ ...requiredChannelFields, ...optionalChannelFields }), minProperties: 1 },
      response: channelReply,
    }),
    async (request) => ({
      result: { channel: await channels.update(request.params.channelId, request.body) },
    }),
  );

  const followParams = params({ channelId: s.channelId, fid: s.fid });
  app.put(
    "/v1/admin/channels/:channelId/followers/:fid",
    operator({
      summary: "Make a fid follow a channel",
      description: "Operator: records a follow.",
      tags: ["Channel follows"],
      params: followParams,
      body: s.object({ followedAt: s.unixSeconds }),
      response: followReply,
    }),
    async (request) => ({
      result: await follows.follow(request.params.channelId, request.params.fid, request.body.followedAt),
    }),
  );

  app.delete(
    "/v1/admin/channels/:channelId/followers/:fid",
    operator({
      summary: "Make a fid unfollow a channel",
      description: "Operator: removes a follow.",
      tags: ["Channel follows"],
      params: followParams,
      response: followReply,
    }),
    async (request) => ({ result: await follows.unfollow(request.params.channelId, request.params.fid) }),
  );
};
