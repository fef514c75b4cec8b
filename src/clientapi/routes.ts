import type { FastifyInstance } from "fastify";
import { clientAddressKey } from "../http/index.js";
import type { Page, PageQuery } from "./paging.js";
import * as s from "./schemas.js";
import type { ClientApiService } from "./service.js";
import type { Approval, NewKeyRequest } from "./keyRequests.js";

function paged<T, R extends object>(page: Page<T>, result: (items: T[]) => R) {
  return page.next === undefined
    ? { result: result(page.items) }
    : { result: result(page.items), next: { cursor: page.next } };
}

const query = s.object;

const keyRequestBody = {
  type: "object",
  properties: {
    key: { type: "string", maxLength: 200 },
    requestFid: { type: ["integer", "string"], maxLength: 20 },
    deadline: { type: "integer" },
    signature: { type: "string", maxLength: 300 },
    redirectUrl: { type: "string", minLength: 1, maxLength: 2048 },
    sponsorship: {
      type: "object",
      properties: {
        sponsorFid: { type: ["integer", "string"], maxLength: 20 },
        signature: { type: "string", maxLength: 300 },
      },
      required: ["sponsorFid", "signature"],
      additionalProperties: false,
    },
  },
  required: ["key", "requestFid", "deadline", "signature"],
  additionalProperties: false,
} as const;

const keyRequestReply = s.envelope(s.result({ signedKeyRequest: s.signedKeyRequest }));
const token = { type: "string", minLength: 1, maxLength: 200 } as const;

/** The public endpoints of SPEC B, the reference's later spellings, and castnet's approval interface. */
export function publicRoutes(service: ClientApiService) {
  const { directory, powerBadges, keyRequests } = service;
  return async function plugin(app: FastifyInstance): Promise<void> {
    app.get(
      "/v2/all-channels",
      {
        schema: {
          querystring: query({}),
          response: s.envelope(s.result({ channels: { type: "array", items: s.channel } })),
        },
      },
      async () => ({ result: { channels: await directory.allChannels() } }),
    );

    app.get<{ Querystring: { channelId: string } }>(
      "/v1/channel",
      {
        schema: {
          querystring: query({ channelId: s.channelId }, ["channelId"]),
          response: s.envelope(s.result({ channel: s.channel })),
        },
      },
      async (request) => ({ result: { channel: await directory.channel(request.query.channelId) } }),
    );

    app.get<{ Querystring: PageQuery & { channelId: string } }>(
      "/v1/channel-followers",
      {
        schema: {
          querystring: query({ channelId: s.channelId, ...s.paging }, ["channelId"]),
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
      async (request) => {
        const { channelId, ...page } = request.query;
        return paged(await directory.channelFollowers(channelId, page), (users) => ({
          users,
          fids: users.map((user) => user.fid),
        }));
      },
    );

    app.get<{ Querystring: PageQuery & { fid: number } }>(
      "/v1/user-following-channels",
      {
        schema: {
          querystring: query({ fid: s.fid, ...s.paging }, ["fid"]),
          response: s.envelope(s.result({ channels: { type: "array", items: s.followedChannel } }), true),
        },
      },
      async (request) => {
        const { fid, ...page } = request.query;
        return paged(await directory.followedChannels(fid, page), (channels) => ({ channels }));
      },
    );

    app.get<{ Querystring: { fid: number; channelId: string } }>(
      "/v1/user-channel",
      {
        schema: {
          querystring: query({ fid: s.fid, channelId: s.channelId }, ["fid", "channelId"]),
          response: s.envelope(
            s.result({ following: { type: "boolean" }, followedAt: { type: "integer" } }, ["following"]),
          ),
        },
      },
      async (request) => ({
        result: await directory.followStatus(request.query.fid, request.query.channelId),
      }),
    );

    app.get(
      "/v2/power-badge-users",
      {
        schema: {
          querystring: query({}),
          response: s.envelope(s.result({ fids: { type: "array", items: { type: "integer" } } })),
        },
      },
      async () => ({ result: { fids: await powerBadges.holders() } }),
    );

    app.get<{ Querystring: PageQuery & { list: "top" } }>(
      "/v2/discover-actions",
      {
        schema: {
          querystring: query({ list: { type: "string", enum: ["top"] }, ...s.paging }, ["list"]),
          response: s.envelope(s.result({ actions: { type: "array", items: s.action } }), true),
        },
      },
      async (request) => {
        const { list: _list, ...page } = request.query;
        return paged(await directory.topActions("cast", page), (actions) => ({ actions }));
      },
    );

    app.get<{ Querystring: PageQuery & { list: "top" | "featured" } }>(
      "/v2/discover-composer-actions",
      {
        schema: {
          querystring: query({ list: { type: "string", enum: ["top", "featured"] }, ...s.paging }, ["list"]),
          response: s.envelope(s.result({ actions: { type: "array", items: s.action } }), true),
        },
      },
      async (request) => {
        const { list, ...page } = request.query;
        const actions =
          list === "featured"
            ? await directory.featuredActions(page)
            : await directory.topActions("composer", page);
        return paged(actions, (items) => ({ actions: items }));
      },
    );

    // The reference documented /v1/blocked-users first and moved it to /fc/blocked-users later; both answer.
    for (const path of ["/v1/blocked-users", "/fc/blocked-users"]) {
      app.get<{ Querystring: PageQuery & { blockerFid?: number } }>(
        path,
        {
          schema: {
            querystring: query({ blockerFid: s.fid, ...s.paging }),
            response: s.envelope(s.result({ blockedUsers: { type: "array", items: s.blockedUser } }), true),
          },
        },
        async (request) => {
          const { blockerFid, ...page } = request.query;
          return paged(await directory.blockedUsers(blockerFid, page), (blockedUsers) => ({ blockedUsers }));
        },
      );
    }

    // The reference names the create path in the singular and posts to the plural in every example.
    for (const path of ["/v2/signed-key-request", "/v2/signed-key-requests"]) {
      app.post<{ Body: NewKeyRequest }>(
        path,
        { schema: { body: keyRequestBody, response: keyRequestReply } },
        async (request) => ({
          result: {
            signedKeyRequest: await keyRequests.create(request.body, clientAddressKey(request.ip)),
          },
        }),
      );
    }

    app.get<{ Querystring: { token: string } }>(
      "/v2/signed-key-request",
      { schema: { querystring: query({ token }, ["token"]), response: keyRequestReply } },
      async (request) => ({ result: { signedKeyRequest: await keyRequests.get(request.query.token) } }),
    );

    const typedField = {
      type: "array",
      items: s.result({ name: { type: "string" }, type: { type: "string" } }),
    };
    app.get<{ Querystring: { token: string; fid: number } }>(
      "/v2/signed-key-request/approval",
      {
        schema: {
          querystring: query({ token, fid: s.fid }, ["token", "fid"]),
          response: s.envelope(
            s.result(
              {
                typedData: s.result({
                  domain: s.result({
                    name: { type: "string" },
                    version: { type: "string" },
                    chainId: { type: "integer" },
                    verifyingContract: { type: "string" },
                  }),
                  types: s.result({ EIP712Domain: typedField, Add: typedField }),
                  primaryType: { type: "string" },
                  message: s.result({
                    owner: { type: "string" },
                    keyType: { type: "integer" },
                    key: { type: "string" },
                    metadataType: { type: "integer" },
                    metadata: { type: "string" },
                    nonce: { type: "integer" },
                    deadline: { type: "integer" },
                  }),
                }),
                redirectUrl: { type: "string" },
              },
              ["typedData"],
            ),
          ),
        },
      },
      async (request) => ({
        result: await keyRequests.approvalTypedData(request.query.token, request.query.fid),
      }),
    );

    app.post<{ Body: Approval }>(
      "/v2/signed-key-request/approval",
      {
        schema: {
          body: {
            type: "object",
            properties: {
              token,
              fid: s.fid,
              nonce: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
              deadline: { type: "integer" },
              signature: { type: "string", maxLength: 300 },
            },
            required: ["token", "fid", "nonce", "deadline", "signature"],
            additionalProperties: false,
          },
          response: keyRequestReply,
        },
      },
      async (request) => ({ result: { signedKeyRequest: await keyRequests.approve(request.body) } }),
    );
  };
}
