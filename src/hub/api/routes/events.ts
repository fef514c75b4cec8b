/** The hub event log: GET /v1/events and GET /v1/eventById (docs/reference/hub-http-api.md §9). */
import type { HubRoutesOptions } from "./options.js";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import { HubError } from "../../../protocol/errors.js";
import { renderHubEvent } from "../../../protocol/json/index.js";
import { sendJson } from "../../../http/index.js";
import { integer } from "./query.js";

// Sent as the renderer's JSON text, in its key order; the schema documents it (src/protocol/json/eventSchema.ts).
const eventSchema = { $ref: "HubEvent#" } as const;

export const eventRoutes: FastifyPluginAsync<HubRoutesOptions> = async (fastify, { service, profile }) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  app.get(
    "/v1/events",
    {
      schema: {
        summary: "Hub events",
        description:
          "The hub's event log, 100 events from an event id on, in the order the hub merged them; events are kept three days.",
        "x-spec": "SPEC Events 1, 2, 4",
        tags: ["Events"],
        querystring: { type: "object", properties: { from_event_id: integer } },
        response: {
          200: {
            type: "object",
            required: ["nextPageEventId", "events"],
            additionalProperties: false,
            properties: {
              nextPageEventId: { type: "integer" },
              events: { type: "array", items: eventSchema },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const page = await service.events.page(request.query.from_event_id ?? 0);
      const events = page.events.map((e) => renderHubEvent(e, profile));
      return sendJson(reply, JSON.stringify({ nextPageEventId: page.nextPageEventId, events }));
    },
  );

  // The reference documents `event_id`; its example call spells it `id`.
  app.get(
    "/v1/eventById",
    {
      schema: {
        summary: "Hub event by id",
        description: "One event by its id.",
        "x-spec": "SPEC Events 1",
        tags: ["Events"],
        querystring: { type: "object", properties: { event_id: integer, id: integer } },
        response: { 200: eventSchema },
      },
    },
    async (request, reply) => {
      const id = request.query.event_id ?? request.query.id;
      if (id === undefined)
        throw new HubError("bad_request.validation_failure", 'query parameter "event_id" is required');
      return sendJson(reply, JSON.stringify(renderHubEvent(await service.events.byId(id), profile)));
    },
  );
};
