/**
 * GET /v1/events/stream: the hub event log pushed as server-sent events, so that consumers need not
 * poll /v1/events. Each event is one SSE message whose `id` is the hub event id and whose `data` is
 * the same JSON as /v1/events. A stream starts at `from_event_id` (inclusive), or after the id in a
 * reconnecting client's Last-Event-ID header, or else with the next event to be merged. Events
 * committed by other hub processes on the same database arrive within a second.
 */
import { once } from "node:events";
import type { FastifyPluginAsync } from "fastify";
import { HubError } from "../../protocol/errors.js";
import { renderHubEvent } from "../../protocol/json/index.js";
import type { NamingProfile } from "../../protocol/naming.js";
import { EVENTS_PAGE_SIZE } from "../events.js";
import type { HubService } from "../service.js";
import { integer } from "./query.js";

const POLL_MS = 1_000;
const HEARTBEAT_MS = 15_000;

export function streamRoutes(service: HubService, profile: NamingProfile): FastifyPluginAsync {
  return async (app) => {
    const open = new Set<() => void>();
    // Streams never end by themselves; closing the hub ends them so that it can stop.
    app.addHook("preClose", async () => {
      for (const end of open) end();
    });

    app.get<{ Querystring: { from_event_id?: number } }>(
      "/v1/events/stream",
      { schema: { querystring: { type: "object", properties: { from_event_id: integer } } } },
      async (request, reply) => {
        const lastEventId = request.headers["last-event-id"];
        let cursor: number;
        if (request.query.from_event_id !== undefined) cursor = request.query.from_event_id;
        else if (typeof lastEventId === "string" && /^\d{1,16}$/.test(lastEventId))
          cursor = Number(lastEventId) + 1;
        else if (lastEventId !== undefined)
          throw new HubError("bad_request.invalid_param", "Last-Event-ID must be a hub event id");
        else cursor = (await service.lastEventId()) + 1;

        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          ...(reply.getHeaders() as Record<string, string>),
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache",
          connection: "keep-alive",
          "x-accel-buffering": "no",
        });
        raw.write(": castnet hub events\n\n");

        let closed = false;
        let pending = true;
        let wake = () => undefined as void;
        const notify = () => {
          pending = true;
          wake();
        };
        const end = () => {
          closed = true;
          wake();
        };
        open.add(end);
        const unsubscribe = service.onEvents(notify);
        const poll = setInterval(notify, POLL_MS);
        const heartbeat = setInterval(() => raw.write(": keep-alive\n\n"), HEARTBEAT_MS);
        request.raw.on("close", end);
        try {
          while (!closed) {
            if (!pending) await new Promise<void>((resolve) => (wake = resolve));
            pending = false;
            for (;;) {
              const { events } = await service.events(cursor, EVENTS_PAGE_SIZE);
              for (const event of events) {
                const text = `id: ${event.id}\ndata: ${JSON.stringify(renderHubEvent(event, profile))}\n\n`;
                if (!raw.write(text)) await Promise.race([once(raw, "drain"), once(raw, "close")]);
                if (closed) break;
              }
              if (events.length > 0) cursor = events[events.length - 1]!.id + 1;
              if (events.length < EVENTS_PAGE_SIZE || closed) break;
            }
          }
        } catch (error) {
          request.log.warn({ err: error }, "event stream failed");
        } finally {
          open.delete(end);
          unsubscribe();
          clearInterval(poll);
          clearInterval(heartbeat);
          raw.end();
        }
      },
    );
  };
}
