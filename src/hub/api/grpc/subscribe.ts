/**
 * Subscribe: the hub event log as a server stream of HubEvents, the gRPC twin of GET
 * /v1/events/stream. A stream starts at `fromId` (inclusive; events from before the call included)
 * or else with the next event to be merged, and carries only the `eventTypes` asked for (all when
 * none). The shard fields are accepted and ignored: castnet has one shard.
 *
 * Streams at the head share one reader (../fanout.ts) that sends the stored bytes of each event.
 * Streams are capped in all and per client address, like the SSE streams (on counts of their own).
 * A subscriber that stops reading is ended with UNAVAILABLE once 1 MB of events waits for it; it
 * resubscribes from the id it last saw.
 */
import { once } from "node:events";
import type { ServerWritableStream } from "@grpc/grpc-js";
import { clientAddressKey } from "../../../http/index.js";
import { HubError } from "../../../protocol/errors.js";
import type { SubscribeRequest } from "../../../protocol/generated/request_response.js";
import { rateLimited } from "../../errors.js";
import { EVENTS_PAGE_SIZE, storedEventsFrom } from "../../data/events.js";
import { EventFanout, type Subscriber } from "../fanout.js";
import type { StreamLimits } from "../routes/options.js";
import type { GrpcContext, Handlers } from "./call.js";
import { statusOf } from "./errors.js";

const MAX_BUFFERED_BYTES = 1024 * 1024;

type Call = ServerWritableStream<SubscribeRequest, Uint8Array>;

/** The address part of a peer string (`host:port`, IPv6 hosts unbracketed). */
function peerAddress(peer: string): string {
  const colon = peer.lastIndexOf(":");
  return colon <= 0 ? peer : peer.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
}

export function subscribeHandlers(
  ctx: GrpcContext,
  limits: StreamLimits = {},
): { handlers: Handlers; close(): void } {
  const maxStreams = limits.maxStreams ?? 2_000;
  const maxPerClient = limits.maxStreamsPerClient ?? 20;
  const fanout = new EventFanout<Uint8Array>(
    async (fromId) => {
      const rows = await storedEventsFrom(ctx.database.db, fromId, EVENTS_PAGE_SIZE);
      return {
        events: rows.map((row) => ({ id: row.id, type: row.type, rendered: row.event })),
        full: rows.length === EVENTS_PAGE_SIZE,
      };
    },
    (error) => ctx.logger.warn({ err: error }, "gRPC event stream read failed"),
  );
  const unsubscribe = ctx.service.onEvents(() => fanout.notify());
  const open = new Set<() => void>();
  const perClient = new Map<string, number>();

  async function subscribe(call: Call): Promise<void> {
    const client = clientAddressKey(peerAddress(call.getPeer()));
    if ((perClient.get(client) ?? 0) >= maxPerClient) {
      throw rateLimited(
        `this client has ${maxPerClient} event streams open, the most the hub allows one client; close one first`,
      );
    }
    if (open.size >= maxStreams) {
      throw new HubError("unavailable", "the hub serves as many event streams as it can; try again later");
    }
    const types = new Set<number>(call.request.eventTypes);
    let closed = false;
    let buffered = 0;
    const gone = new Promise<void>((resolve) => call.once("close", resolve));
    const end = (error?: HubError) => {
      if (closed) return;
      closed = true;
      open.delete(end);
      const left = (perClient.get(client) ?? 1) - 1;
      if (left === 0) perClient.delete(client);
      else perClient.set(client, left);
      fanout.remove(subscriber);
      if (call.cancelled || call.destroyed) return;
      if (error === undefined) call.end();
      else call.emit("error", statusOf(error));
    };
    const subscriber: Subscriber<Uint8Array> = {
      cursor: 0,
      write: ({ type, rendered }) => {
        if (closed) return false;
        if (buffered > MAX_BUFFERED_BYTES) {
          end(new HubError("unavailable", "the subscriber fell too far behind; subscribe again with fromId"));
          return false;
        }
        if (types.size > 0 && !types.has(type)) return true;
        buffered += rendered.length;
        call.write(rendered, () => (buffered -= rendered.length));
        return true;
      },
      // HTTP/2 keeps the connection alive; the stream needs no heartbeat of its own.
      keepAlive: () => !closed,
      ready: async () => {
        if (call.writableNeedDrain) await Promise.race([once(call, "drain"), gone]);
      },
    };
    // Counted before anything is awaited, so that calls arriving together cannot all pass the caps.
    open.add(end);
    perClient.set(client, (perClient.get(client) ?? 0) + 1);
    call.on("cancelled", () => end());
    call.on("close", () => end());
    try {
      subscriber.cursor = call.request.fromId ?? (await ctx.service.events.lastId()) + 1;
      if (!(await fanout.catchUp(subscriber, () => closed))) end();
    } catch (error) {
      ctx.logger.warn({ err: error }, "gRPC event stream failed");
      end(new HubError("unavailable", "the event stream failed; subscribe again with fromId"));
    }
  }

  return {
    handlers: {
      subscribe: (call: Call) => {
        subscribe(call).catch((error: unknown) => {
          const refusal =
            error instanceof HubError ? error : new HubError("unknown", "the event stream failed");
          call.emit("error", statusOf(refusal));
        });
      },
    },
    // Streams never end by themselves; closing the hub ends them so that the server can stop.
    close() {
      unsubscribe();
      for (const end of open) end();
    },
  };
}
