/** GetEvent and GetEvents: hub events as stored, by id and by pages of ids. */
import { HubError } from "../../../protocol/errors.js";
import type { EventRequest, EventsRequest } from "../../../protocol/generated/request_response.js";
import { storedEventById, storedEventsFrom } from "../../data/events.js";
import { u64 } from "../../data/keys.js";
import { cut, pageSizeOf } from "../../data/paging.js";
import { type GrpcContext, type Handlers, unary } from "./call.js";
import { type BytesPage, framed } from "./wire.js";

/** A GetEvents page token: the id the next page starts at, 8 bytes big-endian. */
function startOf(request: EventsRequest): number {
  const token = request.pageToken;
  if (token === undefined || token.length === 0) return request.startId;
  if (token.length !== 8) {
    throw new HubError("bad_request.invalid_param", "pageToken is not a page token this hub gave out");
  }
  return Number(new DataView(token.buffer, token.byteOffset, 8).getBigUint64(0));
}

export function eventHandlers(ctx: GrpcContext): Handlers {
  const db = ctx.database.db;
  return {
    getEvent: unary(ctx, async (request: EventRequest) => {
      const stored = await storedEventById(db, request.id);
      if (stored === undefined) throw new HubError("not_found", "event not found");
      return stored.event;
    }),
    // From startId (inclusive) up to stopId (exclusive), oldest first.
    getEvents: unary(ctx, async (request: EventsRequest): Promise<BytesPage> => {
      if (request.reverse === true) {
        throw new HubError("bad_request.invalid_param", "GetEvents pages oldest first only");
      }
      const size = pageSizeOf(request.pageSize);
      const rows = await storedEventsFrom(db, startOf(request), size + 1, request.stopId);
      const page = cut(rows, size, (row) => u64(row.id + 1));
      return { framed: framed(page.items.map((row) => row.event)), nextPageToken: page.next };
    }),
  };
}
