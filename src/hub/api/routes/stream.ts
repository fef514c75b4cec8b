/**
 * GET /v1/events/stream: the hub event log pushed as server-sent events, so that consumers need not
 * poll /v1/events. Each event is one SSE message whose `id` is the hub event id and whose `data` is
 * the same JSON as /v1/events. A stream starts at `from_event_id` (inclusive), or after the id in a
 * reconnecting client's Last-Event-ID header, or else with the next event to be merged. Events
 * committed by other hub processes on the same database arrive within a second.
 *
 * Streams at the head share one reader (../fanout.ts). Open streams are capped in all and per
 * client (IPv6 clients by their /64). A subscriber whose socket buffer passes a bound is dropped,
 * not waited for: it reconnects with Last-Event-ID and catches up from the database, while waiting
 * would hold every other subscriber back and buffering without bound would let it hold memory.
 */
import type { HubRoutesOptions } from "./options.js";
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import type { FastifyPluginAsync } from "fastify";
import type { RequestTypesFromSchemas } from "../../../http/routeTypes.js";
import { clientAddressKey } from "../../../http/index.js";
import { HubError } from "../../../protocol/errors.js";
import { renderHubEvent } from "../../../protocol/json/index.js";
import { rateLimited } from "../../errors.js";
import { EVENTS_PAGE_SIZE } from "../../data/events.js";
import { EventFanout, type Subscriber } from "../fanout.js";
import { integer } from "./query.js";

/**
 * Whom a stream counts against for the per-client cap: its address, and for a web page (its request
 * carries an Origin) the page's origin besides. A page can open streams through as many host names as
 * it likes (a.localhost, b.localhost, …); counted apart, it fills only its own origin's share and never
 * locks the machine's own tools (`castnet events tail`, indexers, which send no Origin) out.
 */
function streamClient(ip: string, origin: string | undefined): string {
  const address = clientAddressKey(ip);
  return origin === undefined ? address : `${address} ${origin}`;
}

/** Unsent SSE text a subscriber may have queued before it is dropped. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export const streamRoutes: FastifyPluginAsync<HubRoutesOptions> = async (
  fastify,
  { service, profile, streams = {}, metrics },
) => {
  const app = fastify.withTypeProvider<RequestTypesFromSchemas>();
  const maxStreams = streams.maxStreams ?? 2_000;
  const maxPerClient = streams.maxStreamsPerClient ?? 20;
  const fanout = new EventFanout(
    async (fromId) => {
      const { events } = await service.events.page(fromId, EVENTS_PAGE_SIZE);
      return {
        events: events.map((event) => ({
          id: event.id,
          type: event.type,
          rendered: `id: ${event.id}\ndata: ${JSON.stringify(renderHubEvent(event, profile))}\n\n`,
        })),
        full: events.length === EVENTS_PAGE_SIZE,
      };
    },
    (error) => app.log.warn({ err: error }, "event stream read failed"),
  );
  const unsubscribe = service.onEvents(() => fanout.notify());
  const open = new Set<() => void>();
  const perClient = new Map<string, number>();
  // Streams never end by themselves; closing the hub ends them so that it can stop.
  app.addHook("preClose", async () => {
    unsubscribe();
    for (const end of open) end();
  });

  app.get(
    "/v1/events/stream",
    {
      schema: {
        summary: "Hub events as a stream",
        description:
          "The event log pushed as server-sent events as the hub merges them; a reconnecting client resumes with Last-Event-ID.",
        "x-spec": "SPEC Events 3",
        tags: ["Events"],
        querystring: { type: "object", properties: { from_event_id: integer } },
        // The stream is written to the socket (hijacked), so this documents it without serialising.
        response: {
          200: {
            description: "`id:` and `data:` lines, one hub event JSON per event, until the client leaves.",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
        },
      },
    },
    async (request, reply) => {
      const client = streamClient(request.ip, request.headers.origin);
      if ((perClient.get(client) ?? 0) >= maxPerClient)
        throw rateLimited(
          `this client has ${maxPerClient} event streams open, the most the hub allows one client; close one first`,
        );
      if (open.size >= maxStreams)
        throw new HubError("unavailable", "the hub serves as many event streams as it can; try again later");

      const lastEventId = request.headers["last-event-id"];
      let cursor: number;
      if (request.query.from_event_id !== undefined) cursor = request.query.from_event_id;
      else if (typeof lastEventId === "string" && /^\d{1,16}$/.test(lastEventId))
        cursor = Number(lastEventId) + 1;
      else if (lastEventId !== undefined)
        throw new HubError("bad_request.invalid_param", "Last-Event-ID must be a hub event id");
      else cursor = (await service.events.lastId()) + 1;

      reply.hijack();
      const raw = reply.raw;
      // A stream is a long response, not a slow request: the idle-connection timeout is not for it.
      raw.socket?.setTimeout(0);
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      raw.write(": castnet hub events\n\n");

      let closed = false;
      const subscriber: Subscriber<string> = {
        cursor,
        write: (event) => write(raw, event.rendered, end),
        keepAlive: () => write(raw, ": keep-alive\n\n", end),
        ready: async () => {
          if (raw.writableNeedDrain) await Promise.race([once(raw, "drain"), once(raw, "close")]);
        },
      };
      const end = () => {
        if (closed) return;
        closed = true;
        open.delete(end);
        metrics.streams.dec();
        const left = (perClient.get(client) ?? 1) - 1;
        if (left === 0) perClient.delete(client);
        else perClient.set(client, left);
        fanout.remove(subscriber);
        raw.end();
      };
      open.add(end);
      metrics.streams.inc();
      perClient.set(client, (perClient.get(client) ?? 0) + 1);
      raw.on("close", end);
      try {
        if (!(await fanout.catchUp(subscriber, () => closed))) end();
      } catch (error) {
        request.log.warn({ err: error }, "event stream failed");
        end();
      }
    },
  );
};

/** Writes unless the subscriber has fallen too far behind, in which case it is dropped. */
function write(raw: ServerResponse, text: string, end: () => void): boolean {
  if (raw.writableEnded || raw.destroyed) return false;
  if (raw.writableLength > MAX_BUFFERED_BYTES) {
    end();
    return false;
  }
  raw.write(text);
  return true;
}
