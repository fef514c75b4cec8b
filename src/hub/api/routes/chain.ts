/** On-chain events, registered fids and storage limits (docs/reference/hub-http-api.md §2). */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import { ON_CHAIN_EVENT_TYPE_NAMES } from "../../../protocol/json/enums.js";
import { renderOnChainEvent } from "../../../protocol/json/index.js";
import type { OnChainEvent } from "../../../protocol/generated/onchain_event.js";
import { sendJson } from "../../../http/index.js";
import { chainOrderKey, pageInMemory, type KeyPageRequest } from "../../data/paging.js";
import {
  checkTokenLength,
  enumParam,
  hexParam,
  integer,
  pageRequest,
  pagingProperties,
  text,
} from "./query.js";

// Events are sent as the renderer's JSON text, in its key order (the reference's): these schemas
// document the shape (src/protocol/json/eventSchema.ts) and Fastify does not re-serialise text.
const eventSchema = { $ref: "OnChainEvent#" } as const;
const eventsSchema = {
  type: "object",
  required: ["events"],
  additionalProperties: false,
  properties: { events: { type: "array", items: eventSchema } },
} as const;
const signerPageSchema = {
  type: "object",
  required: ["events"],
  additionalProperties: false,
  properties: {
    events: { type: "array", items: eventSchema },
    nextPageToken: { type: "string", description: "Absent on the last page." },
  },
} as const;
const FID_KEY_LENGTH = 8;
const SIGNER_EVENT_KEY_LENGTH = 8;

/** A fid has few signer events, so they are paged in memory. */
function pageSignerEvents(events: OnChainEvent[], page: KeyPageRequest) {
  const { items, next } = pageInMemory(events, page, chainOrderKey);
  return {
    events: items.map(renderOnChainEvent),
    ...(next === undefined ? {} : { nextPageToken: Buffer.from(next).toString("base64") }),
  };
}

export const onChainEventRoutes: FastifyPluginAsync<HubRoutesOptions> = async (fastify, { service }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/onChainSignersByFid",
    {
      schema: {
        summary: "Signer events by fid",
        description: "The keys that may sign for a fid now; with signer, that key's event.",
        "x-spec": "SPEC Events 5, SPEC C. On-chain event",
        tags: ["On-chain events"],
        querystring: {
          type: "object",
          required: ["fid"],
          properties: { fid: integer, signer: text, ...pagingProperties },
        },
        response: { 200: { anyOf: [signerPageSchema, eventSchema] } },
      },
    },
    async (request, reply) => {
      const { fid, signer } = request.query;
      // With a key the reference answers that key's event alone, and only while the key is active.
      if (signer !== undefined && signer !== "") {
        const event = await service.onChain.signer(fid, hexParam(signer, "signer", 32));
        return sendJson(reply, JSON.stringify(renderOnChainEvent(event)));
      }
      const page = checkTokenLength(pageRequest(request.query), SIGNER_EVENT_KEY_LENGTH);
      return sendJson(reply, JSON.stringify(pageSignerEvents(await service.onChain.signersByFid(fid), page)));
    },
  );

  app.get(
    "/v1/onChainEventsByFid",
    {
      schema: {
        summary: "On-chain events by fid",
        description: "A fid's on-chain events of one type (signers, storage rent, id registry).",
        "x-spec": "SPEC Events 5, SPEC C. On-chain event",
        tags: ["On-chain events"],
        querystring: {
          type: "object",
          required: ["fid", "event_type"],
          properties: { fid: integer, event_type: text },
        },
        response: { 200: eventsSchema },
      },
    },
    async (request, reply) => {
      const type = enumParam(request.query.event_type, [ON_CHAIN_EVENT_TYPE_NAMES.slice(0, 5)], "event_type");
      const events = (await service.onChain.eventsByFid(request.query.fid, type)).map(renderOnChainEvent);
      return sendJson(reply, JSON.stringify({ events }));
    },
  );

  app.get(
    "/v1/onChainIdRegistryEventByAddress",
    {
      schema: {
        summary: "Id-register event by address",
        description: "Which fid an address holds in custody: the fid's id-register event.",
        "x-spec": "SPEC Events 5",
        tags: ["On-chain events"],
        querystring: { type: "object", required: ["address"], properties: { address: text } },
        response: { 200: eventSchema },
      },
    },
    async (request, reply) => {
      const address = hexParam(request.query.address, "address", 20);
      const event = await service.onChain.idRegistryEventByAddress(address);
      return sendJson(reply, JSON.stringify(renderOnChainEvent(event)));
    },
  );

  app.get(
    "/v1/fids",
    {
      schema: {
        summary: "Registered fids",
        description: "Every fid the hub knows, a page at a time.",
        "x-spec": "SPEC C. Hub",
        tags: ["On-chain events"],
        querystring: { type: "object", properties: { ...pagingProperties } },
        response: {
          200: {
            type: "object",
            required: ["fids"],
            properties: {
              fids: { type: "array", items: { type: "integer" } },
              nextPageToken: { type: "string" },
            },
          },
        },
      },
    },
    async (request) => service.onChain.fids(checkTokenLength(pageRequest(request.query), FID_KEY_LENGTH)),
  );

  app.get(
    "/v1/storageLimitsByFid",
    {
      schema: {
        summary: "Storage limits by fid",
        description:
          "How many messages of each kind a fid's storage holds: what it rents, less what it lends, plus what it borrows.",
        "x-spec": "SPEC C. Hub",
        tags: ["On-chain events"],
        querystring: { type: "object", required: ["fid"], properties: { fid: integer } },
        response: {
          200: {
            type: "object",
            required: ["limits", "units", "unitDetails"],
            properties: {
              limits: {
                type: "array",
                items: {
                  type: "object",
                  required: ["storeType", "name", "limit", "used", "earliestTimestamp", "earliestHash"],
                  properties: {
                    storeType: { type: "string" },
                    name: { type: "string" },
                    limit: { type: "integer" },
                    used: { type: "integer" },
                    earliestTimestamp: { type: "integer" },
                    earliestHash: { type: "string" },
                  },
                },
              },
              units: { type: "integer" },
              unitDetails: {
                type: "array",
                items: {
                  type: "object",
                  required: ["unitType", "unitSize", "purchasedUnitSize", "lentUnitSize", "borrowedUnitSize"],
                  properties: {
                    unitType: { type: "string" },
                    unitSize: {
                      type: "integer",
                      description: "Units the fid uses: rented, less lent, plus borrowed.",
                    },
                    purchasedUnitSize: { type: "integer", description: "Units the fid rents, unexpired." },
                    lentUnitSize: { type: "integer", description: "Units its loans give other fids." },
                    borrowedUnitSize: { type: "integer", description: "Units other fids' loans give it." },
                  },
                },
              },
            },
          },
        },
      },
    },
    async (request) => service.storage.limitsByFid(request.query.fid),
  );
};
