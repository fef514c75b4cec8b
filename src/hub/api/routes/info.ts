/** GET /v1/info and GET /v1/currentPeers. */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import { text } from "./query.js";

const count = { type: "integer" } as const;

const shardInfoSchema = {
  type: "object",
  description: "A shard as the successor node reports it: castnet has one, shard 1, and makes no blocks.",
  required: [
    "shardId",
    "maxHeight",
    "numMessages",
    "numFidRegistrations",
    "approxSize",
    "blockDelay",
    "mempoolSize",
  ],
  properties: {
    shardId: count,
    maxHeight: { type: "integer", description: "Its newest block: 0, castnet makes none." },
    numMessages: {
      type: "integer",
      description: "Messages, on-chain events and fname proofs: what the successor's sync trie counts.",
    },
    numFidRegistrations: count,
    approxSize: { type: "integer", description: "Bytes the database takes, approximately." },
    blockDelay: count,
    mempoolSize: { type: "integer", description: "0: a submit is merged before it is answered." },
  },
} as const;

/** The successor node's connected-peer lists; castnet is a single node, so both are always empty. */
const peersSchema = {
  type: "object",
  required: ["contacts", "peers"],
  additionalProperties: false,
  properties: {
    contacts: { type: "array", maxItems: 0, items: { type: "object" } },
    peers: { type: "array", maxItems: 0, items: { type: "object" } },
  },
} as const;

export const infoRoutes: FastifyPluginAsync<HubRoutesOptions> = async (fastify, { service }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/info",
    {
      schema: {
        summary: "Hub info",
        description:
          "The hub's version, network and shards (one), and with dbstats the reference hub's counts.",
        "x-spec": "SPEC C. Hub",
        tags: ["Info"],
        querystring: { type: "object", properties: { dbstats: text } },
        response: {
          200: {
            // No "required": the serialiser would move required keys ahead of dbStats.
            type: "object",
            properties: {
              version: { type: "string" },
              isSyncing: { type: "boolean" },
              nickname: { type: "string" },
              rootHash: { type: "string" },
              dbStats: {
                type: "object",
                properties: {
                  numMessages: count,
                  numFidEvents: count,
                  numFnameEvents: count,
                  approxSize: count,
                },
              },
              peerId: { type: "string" },
              hubOperatorFid: count,
              numShards: count,
              shardInfos: { type: "array", items: shardInfoSchema },
            },
          },
        },
      },
    },
    async (request) => {
      // As in the reference: `true` or a non-zero integer asks for the database statistics.
      const flag = request.query.dbstats ?? "";
      return service.info(flag === "true" || (/^\d+$/.test(flag) && Number(flag) !== 0));
    },
  );

  app.get(
    "/v1/currentPeers",
    {
      schema: {
        summary: "Connected peers",
        description:
          "The peers the hub gossips with, as the successor node lists them: castnet is a single node, so none.",
        "x-spec": "SPEC C. Hub",
        tags: ["Info"],
        response: { 200: peersSchema },
      },
    },
    async () => ({ contacts: [], peers: [] }),
  );
};
