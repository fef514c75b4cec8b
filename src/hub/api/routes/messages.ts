/** Reads of casts, reactions, links, user data and verifications (docs/reference/hub-http-api.md §2). */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import { HubError } from "../../../protocol/errors.js";
import {
  REACTION_TYPE_NAMES,
  REACTION_TYPE_SHORT_NAMES,
  USER_DATA_TYPE_NAMES,
} from "../../../protocol/json/enums.js";
import { sendJson } from "../../../http/index.js";
import { messageSchema, pageSchema, sendMessagePage } from "./json.js";
import {
  addressParam,
  checkTokenLength,
  enumParam,
  hashPrefixParam,
  hexParam,
  integer,
  pageRequest,
  pagingProperties,
  text,
  type PagingQuery,
} from "./query.js";

const TS_HASH_LENGTH = 24;

/**
 * The querystring and answer of a read of one message. The type parameters keep the schema's literal
 * types, from which the route's query type is made (the type provider).
 */
function schemaOfOne<const P extends Record<string, object>, const R extends readonly (keyof P & string)[]>(
  required: R,
  properties: P,
) {
  return { querystring: { type: "object", required, properties }, response: { 200: messageSchema } } as const;
}

/** The querystring and answer of a read of a page of messages, the paging parameters included. */
function schemaOfPage<const P extends Record<string, object>, const R extends readonly (keyof P & string)[]>(
  required: R,
  properties: P,
) {
  return {
    querystring: { type: "object", required, properties: { ...properties, ...pagingProperties } },
    response: { 200: pageSchema },
  } as const;
}

function page(query: PagingQuery) {
  return checkTokenLength(pageRequest(query), TS_HASH_LENGTH);
}

/** A reaction type by number, full enum name, or the successor node's name (`Like`, `Recast`). */
function reactionType(value: string): number {
  return enumParam(value, [REACTION_TYPE_NAMES, REACTION_TYPE_SHORT_NAMES], "reaction_type");
}

/** The optional filter of the reaction lists: every type when absent or empty. */
function reactionTypeFilter(value: string | undefined): number | undefined {
  return value === undefined || value === "" ? undefined : reactionType(value);
}

const REACTION_TYPE = {
  type: "string",
  maxLength: 1024,
  description: "REACTION_TYPE_LIKE or REACTION_TYPE_RECAST, Like or Recast, 1 or 2.",
} as const;

const LINK_TYPE = { type: "string", minLength: 1, maxLength: 8 } as const;
const HASH = "hash";

export const messageRoutes: FastifyPluginAsync<HubRoutesOptions> = async (fastify, { service }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/castById",
    {
      schema: {
        summary: "Cast by id",
        description: "One cast, by its author's fid and its hash.",
        "x-spec": "SPEC C. Hub, SPEC C. Message envelope",
        tags: ["Casts"],
        ...schemaOfOne(["fid", "hash"], { fid: integer, hash: text }),
      },
    },
    async (request, reply) =>
      sendJson(
        reply,
        await service.messages.castById(request.query.fid, hexParam(request.query.hash, HASH, 20)),
      ),
  );

  app.get(
    "/v1/castByHash",
    {
      schema: {
        summary: "Cast by hash",
        description:
          "The cast with this hash, whoever cast it, or the one with the lowest hash that starts with these hex digits (8 or more). castnet's own read: the reference hub has none.",
        "x-spec": "SPEC C. Hub",
        tags: ["Casts"],
        ...schemaOfOne(["hash"], { hash: text }),
      },
    },
    async (request, reply) => {
      const { low, high } = hashPrefixParam(request.query.hash, HASH);
      return sendJson(reply, await service.messages.castByHash(low, high));
    },
  );

  app.get(
    "/v1/castsByFid",
    {
      schema: {
        summary: "Casts by fid",
        description: "A fid's casts, a page at a time.",
        "x-spec": "SPEC C. Hub",
        tags: ["Casts"],
        ...schemaOfPage(["fid"], { fid: integer }),
      },
    },
    async (request, reply) =>
      sendMessagePage(reply, await service.messages.castsByFid(request.query.fid, page(request.query))),
  );

  app.get(
    "/v1/castsByParent",
    {
      schema: {
        summary: "Casts by parent",
        description: "The replies to a cast (fid and hash) or to a URL.",
        "x-spec": "SPEC C. Hub",
        tags: ["Casts"],
        ...schemaOfPage([], { fid: integer, hash: text, url: text }),
      },
    },
    async (request, reply) => {
      const { fid, hash, url } = request.query;
      // The parent cast wins when both are given, as in the reference.
      let parent: { fid: number; hash: Uint8Array } | string;
      if (fid !== undefined && hash !== undefined) parent = { fid, hash: hexParam(hash, HASH, 20) };
      else if (url !== undefined && url !== "") parent = url;
      else throw new HubError("bad_request.invalid_param", "castsByParent needs fid and hash, or url");
      return sendMessagePage(reply, await service.messages.castsByParent(parent, page(request.query)));
    },
  );

  app.get(
    "/v1/castsByMention",
    {
      schema: {
        summary: "Casts by mention",
        description: "Casts that mention a fid.",
        "x-spec": "SPEC C. Hub",
        tags: ["Casts"],
        ...schemaOfPage(["fid"], { fid: integer }),
      },
    },
    async (request, reply) =>
      sendMessagePage(reply, await service.messages.castsByMention(request.query.fid, page(request.query))),
  );

  app.get(
    "/v1/reactionById",
    {
      schema: {
        summary: "Reaction by id",
        description: "One reaction of a fid to a cast or URL.",
        "x-spec": "SPEC C. Hub",
        tags: ["Reactions"],
        ...schemaOfOne(["fid", "reaction_type"], {
          fid: integer,
          target_fid: integer,
          target_hash: text,
          target_url: text,
          reaction_type: REACTION_TYPE,
        }),
      },
    },
    async (request, reply) => {
      const { fid, target_fid, target_hash, target_url } = request.query;
      const type = reactionType(request.query.reaction_type);
      let target: { fid: number; hash: Uint8Array } | string;
      if (target_fid !== undefined && target_hash !== undefined) {
        target = { fid: target_fid, hash: hexParam(target_hash, "target_hash", 20) };
      } else if (target_url !== undefined && target_url !== "") target = target_url;
      else
        throw new HubError(
          "bad_request.invalid_param",
          "reactionById needs target_fid and target_hash, or target_url",
        );
      return sendJson(reply, await service.messages.reactionById(fid, type, target));
    },
  );

  app.get(
    "/v1/reactionsByFid",
    {
      schema: {
        summary: "Reactions by fid",
        description: "A fid's reactions, optionally of one type.",
        "x-spec": "SPEC C. Hub",
        tags: ["Reactions"],
        ...schemaOfPage(["fid"], { fid: integer, reaction_type: REACTION_TYPE }),
      },
    },
    async (request, reply) => {
      const type = reactionTypeFilter(request.query.reaction_type);
      return sendMessagePage(
        reply,
        await service.messages.reactionsByFid(request.query.fid, type, page(request.query)),
      );
    },
  );

  app.get(
    "/v1/reactionsByCast",
    {
      schema: {
        summary: "Reactions by cast",
        description: "The reactions to a cast.",
        "x-spec": "SPEC C. Hub",
        tags: ["Reactions"],
        ...schemaOfPage(["target_fid", "target_hash"], {
          target_fid: integer,
          target_hash: text,
          reaction_type: REACTION_TYPE,
        }),
      },
    },
    async (request, reply) => {
      const { target_fid, target_hash } = request.query;
      const target = { fid: target_fid, hash: hexParam(target_hash, "target_hash", 20) };
      const type = reactionTypeFilter(request.query.reaction_type);
      return sendMessagePage(
        reply,
        await service.messages.reactionsByTarget(target, type, page(request.query)),
      );
    },
  );

  app.get(
    "/v1/reactionsByTarget",
    {
      schema: {
        summary: "Reactions by target URL",
        description: "The reactions to a URL.",
        "x-spec": "SPEC C. Hub",
        tags: ["Reactions"],
        ...schemaOfPage(["url"], {
          url: { type: "string", minLength: 1, maxLength: 1024 },
          reaction_type: REACTION_TYPE,
        }),
      },
    },
    async (request, reply) => {
      const type = reactionTypeFilter(request.query.reaction_type);
      return sendMessagePage(
        reply,
        await service.messages.reactionsByTarget(request.query.url, type, page(request.query)),
      );
    },
  );

  app.get(
    "/v1/linkById",
    {
      schema: {
        summary: "Link by id",
        description: "One link of a fid to another.",
        "x-spec": "SPEC C. Hub",
        tags: ["Links"],
        ...schemaOfOne(["fid", "target_fid", "link_type"], {
          fid: integer,
          target_fid: integer,
          link_type: LINK_TYPE,
        }),
      },
    },
    async (request, reply) => {
      const { fid, target_fid, link_type } = request.query;
      return sendJson(reply, await service.messages.linkById(fid, link_type, target_fid));
    },
  );

  app.get(
    "/v1/linksByFid",
    {
      schema: {
        summary: "Links by fid",
        description: "The links a fid made.",
        "x-spec": "SPEC C. Hub",
        tags: ["Links"],
        ...schemaOfPage(["fid"], { fid: integer, link_type: LINK_TYPE }),
      },
    },
    async (request, reply) => {
      const { fid, link_type } = request.query;
      return sendMessagePage(reply, await service.messages.linksByFid(fid, link_type, page(request.query)));
    },
  );

  app.get(
    "/v1/linksByTargetFid",
    {
      schema: {
        summary: "Links by target fid",
        description: "The links made to a fid.",
        "x-spec": "SPEC C. Hub",
        tags: ["Links"],
        ...schemaOfPage(["target_fid"], { target_fid: integer, link_type: LINK_TYPE }),
      },
    },
    async (request, reply) => {
      const { target_fid, link_type } = request.query;
      return sendMessagePage(
        reply,
        await service.messages.linksByTargetFid(target_fid, link_type, page(request.query)),
      );
    },
  );

  // With a type the reference answers one message, without it a page.
  app.get(
    "/v1/userDataByFid",
    {
      schema: {
        summary: "User data by fid",
        description:
          "A fid's profile fields (display name, bio, picture, username, …); with user_data_type, that one field's message. A username is a name the fid holds at the registry.",
        "x-spec": "SPEC C. Hub, SPEC rule 2",
        tags: ["User data"],
        querystring: {
          type: "object",
          required: ["fid"],
          properties: { fid: integer, user_data_type: text, ...pagingProperties },
        },
        response: { 200: { anyOf: [pageSchema, messageSchema] } },
      },
    },
    async (request, reply) => {
      const { fid, user_data_type } = request.query;
      if (user_data_type !== undefined && user_data_type !== "") {
        const type = enumParam(user_data_type, [USER_DATA_TYPE_NAMES], "user_data_type");
        return sendJson(reply, await service.messages.userData(fid, type));
      }
      return sendMessagePage(reply, await service.messages.userDataByFid(fid, page(request.query)));
    },
  );

  app.get(
    "/v1/verificationsByFid",
    {
      schema: {
        summary: "Verifications by fid",
        description: "The addresses a fid verified; with address, that one message.",
        "x-spec": "SPEC C. Hub",
        tags: ["Verifications"],
        querystring: {
          type: "object",
          required: ["fid"],
          properties: { fid: integer, address: text, ...pagingProperties },
        },
        response: { 200: { anyOf: [pageSchema, messageSchema] } },
      },
    },
    async (request, reply) => {
      const { fid, address } = request.query;
      if (address !== undefined && address !== "") {
        return sendJson(reply, await service.messages.verification(fid, addressParam(address, "address")));
      }
      return sendMessagePage(reply, await service.messages.verificationsByFid(fid, page(request.query)));
    },
  );
};
