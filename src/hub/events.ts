/**
 * The hub event log. Ids follow the reference scheme, ((unix ms − 2021 epoch) << 12) | sequence,
 * and are handed out at the end of each merge transaction from one counter row whose lock is held
 * until commit: ids are unique, increasing and in commit order, even with several hub processes
 * on one database, so a reader paging by id never skips an event that commits later.
 */
import { type Kysely, sql } from "kysely";
import { HubEvent } from "../protocol/generated/hub_event.js";
import { PROTOCOL_EPOCH_MS } from "../protocol/time.js";
import type { MergeContext, PendingEvent } from "./context.js";
import type { HubTables } from "./tables.js";

const SEQUENCE_BITS = 4096;
/** Hub events are kept for three days, as in the reference. */
export const EVENT_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;
/** Events per page of GET /v1/events. */
export const EVENTS_PAGE_SIZE = 100;

export function makeEventId(unixMs: number, sequence = 0): number {
  return Math.max(0, unixMs - PROTOCOL_EPOCH_MS) * SEQUENCE_BITS + sequence;
}

function toHubEvent(pending: PendingEvent, id: number): HubEvent {
  return { ...pending, id, blockNumber: 0, shardIndex: 0, timestamp: 0 };
}

const INSERT_CHUNK = 500;

/** Numbers the transaction's pending events and writes them; call last, just before commit. */
export async function commitEvents(ctx: MergeContext): Promise<HubEvent[]> {
  const n = ctx.events.length;
  if (n === 0) return [];
  const floor = makeEventId(ctx.nowMs);
  // One statement reads and advances the counter under its row lock (held until commit).
  const row = await sql<{ last_id: number | string }>`
    update hub_event_counter
    set last_id = case when last_id + ${n} > ${floor + n - 1} then last_id + ${n} else ${floor + n - 1} end
    where id = 1
    returning last_id`
    .execute(ctx.trx)
    .then((result) => result.rows[0]);
  if (row === undefined) throw new Error("hub_event_counter is missing its row");
  const first = Number(row.last_id) - n + 1;
  const events = ctx.events.map((pending, i) => toHubEvent(pending, first + i));
  for (let i = 0; i < events.length; i += INSERT_CHUNK) {
    await ctx.trx
      .insertInto("hub_events")
      .values(
        events.slice(i, i + INSERT_CHUNK).map((event) => ({
          id: event.id,
          type: event.type,
          event: HubEvent.encode(event).finish(),
        })),
      )
      .execute();
  }
  ctx.events.length = 0;
  return events;
}

export async function eventsFrom(db: Kysely<HubTables>, fromId: number, limit: number): Promise<HubEvent[]> {
  const rows = await db
    .selectFrom("hub_events")
    .select("event")
    .where("id", ">=", fromId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => HubEvent.decode(row.event));
}

export async function eventById(db: Kysely<HubTables>, id: number): Promise<HubEvent | undefined> {
  const row = await db.selectFrom("hub_events").select("event").where("id", "=", id).executeTakeFirst();
  return row === undefined ? undefined : HubEvent.decode(row.event);
}

export async function newestEventId(db: Kysely<HubTables>): Promise<number | undefined> {
  const row = await db
    .selectFrom("hub_events")
    .select("id")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

/** Deletes events older than the retention window; returns how many. */
export async function pruneEvents(db: Kysely<HubTables>, nowMs: number): Promise<number> {
  const result = await db
    .deleteFrom("hub_events")
    .where("id", "<", makeEventId(nowMs - EVENT_RETENTION_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Wakes in-process subscribers (the SSE stream) after events commit. */
export class EventBus {
  readonly #listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.#listeners) listener();
  }
}
