/** Blocks and what they hold: the event log, transactions' status and the latest block. */
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../http/routeTypes.js";
import { renderOnChainEvent } from "../../protocol/json/index.js";
import { MAX_EVENTS_PAGE } from "../../interfaces/chain.js";
import { DevchainError } from "../../interfaces/chainErrors.js";
import { isTransactionHash } from "../restRequests.js";
import {
  type DevchainRoutesOptions,
  errorBody,
  hexString,
  onChainEvent,
  transactionStatus,
  uint32,
} from "./schemas.js";

export const chainBlockRoutes: FastifyPluginAsync<DevchainRoutesOptions> = async (fastify, { chain }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/events",
    {
      schema: {
        summary: "On-chain events",
        description: "The event log from a block, as the hub follows it (SPEC C. On-chain event).",
        tags: ["Blocks"],
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            from_block: { ...uint32, default: 0 },
            limit: { type: "integer", minimum: 1, maximum: MAX_EVENTS_PAGE, default: MAX_EVENTS_PAGE },
          },
        },
        response: {
          200: {
            type: "object",
            properties: {
              events: { type: "array", items: onChainEvent },
              nextFromBlock: { type: "integer" },
              hasMore: { type: "boolean" },
            },
          },
          "4xx": errorBody,
        },
      },
    },
    async (request) => {
      const page = await chain.eventsPage(request.query.from_block, request.query.limit);
      return { ...page, events: page.events.map(renderOnChainEvent) };
    },
  );

  app.get(
    "/v1/transactions/:hash",
    {
      schema: {
        summary: "Transaction by hash",
        description: "A transaction's status and block.",
        tags: ["Blocks"],
        params: {
          type: "object",
          additionalProperties: false,
          required: ["hash"],
          properties: { hash: hexString(66) },
        },
        response: { 200: transactionStatus, "4xx": errorBody },
      },
    },
    async (request) => {
      const { hash } = request.params;
      if (!isTransactionHash(hash)) {
        throw new DevchainError("bad_request", "a transaction hash is 0x followed by 64 hex digits");
      }
      const status = await chain.getTransaction(hash);
      if (!status) throw new DevchainError("unknown_transaction", `transaction ${hash} is not known`);
      return status;
    },
  );

  app.get(
    "/v1/blocks/latest",
    {
      schema: {
        summary: "Latest block",
        description: "The newest block's number, hash and time.",
        tags: ["Blocks"],
        response: {
          200: {
            type: "object",
            properties: {
              number: { type: "integer" },
              hash: { type: "string" },
              timestamp: { type: "integer" },
            },
          },
        },
      },
    },
    async () => chain.latestBlock(),
  );
};
