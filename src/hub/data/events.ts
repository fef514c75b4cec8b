/**
 * The hub event log. Ids follow the reference scheme, ((unix ms − 2021 epoch) << 12) | sequence,
 * and are handed out at the end of each merge transaction from one counter row whose lock is held
 * until commit: ids are unique, increasing and in commit order, even with several hub processes
 * on one database, so a reader paging by id never skips an event that commits later.
 */
import { type Kysely, sql } from "kysely";
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { HubEvent } from "../../protocol/generated/hub_event.js";
import { Message, MessageData } from "../../protocol/generated/message.js";
import { PROTOCOL_EPOCH_MS } from "../../protocol/time.js";
import { runCompiled } from "../../storage/index.js";
import type { MergeContext, PendingEvent } from "../merge/context.js";
import type { HubTables } from "./tables.js";

/** Event ids are (ms since the protocol epoch) << 12 | sequence: 4096 ids per millisecond. */
const SEQUENCE_SPACE = 1 << 12;
/** Event retention (SPEC Limits, Events 4; docs/reference/spec.md): events over 3 days old are pruned. */
const EVENT_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;
/** Events per page of GET /v1/events. */
export const EVENTS_PAGE_SIZE = 100;

function makeEventId(unixMs: number): number {
  return Math.max(0, unixMs - PROTOCOL_EPOCH_MS) * SEQUENCE_SPACE;
}

/** The exact bytes a message arrived in (or was stored as), so that events carry them unchanged. */
const received = new WeakMap<Message, Uint8Array>();

export function withBytes(message: Message, bytes: Uint8Array): Message {
  received.set(message, bytes);
  return message;
}

function writeMessage(writer: BinaryWriter, field: number, message: Message | undefined): void {
  if (message === undefined) return;
  const bytes = received.get(message);
  if (bytes !== undefined) writer.uint32((field << 3) | 2).bytes(bytes);
  else Message.encode(message, writer.uint32((field << 3) | 2).fork()).join();
}

/**
 * A HubEvent's protobuf bytes, written here rather than by the generated encoder so that message
 * bodies are the bytes received, not a re-encoding (the generated encoder handles the rest).
 */
function encodeEvent(pending: PendingEvent, id: number): Uint8Array {
  const writer = new BinaryWriter();
  writer.uint32(8).int32(pending.type);
  writer.uint32(16).uint64(id);
  const merge = pending.mergeMessageBody;
  if (merge !== undefined) {
    writer.uint32(26).fork();
    writeMessage(writer, 1, merge.message);
    for (const deleted of merge.deletedMessages) writeMessage(writer, 2, deleted);
    writer.join();
  }
  if (pending.pruneMessageBody !== undefined) {
    writer.uint32(34).fork();
    writeMessage(writer, 1, pending.pruneMessageBody.message);
    writer.join();
  }
  if (pending.revokeMessageBody !== undefined) {
    writer.uint32(42).fork();
    writeMessage(writer, 1, pending.revokeMessageBody.message);
    writer.join();
  }
  const rest: HubEvent = {
    type: 0,
    id: 0,
    mergeUsernameProofBody: pending.mergeUsernameProofBody,
    mergeOnChainEventBody: pending.mergeOnChainEventBody,
    blockNumber: 0,
    shardIndex: 0,
    timestamp: 0,
  };
  HubEvent.encode(rest, writer);
  return writer.finish();
}

const INSERT_CHUNK = 500;

/** Numbers the transaction's pending events and writes them; call last, just before commit. Returns how many. */
export async function commitEvents(ctx: MergeContext): Promise<number> {
  const n = ctx.events.length;
  if (n === 0) return 0;
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
  const rows = ctx.events.map((pending, i) => ({
    id: first + i,
    type: pending.type,
    event: encodeEvent(pending, first + i),
  }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    await runCompiled(
      ctx.trx,
      "insertEvents",
      () => ctx.trx.insertInto("hub_events").values(chunk),
      chunk.flatMap((row) => [row.id, row.type, row.event]),
    );
  }
  ctx.events.length = 0;
  return rows.length;
}

/**
 * An event as stored, its messages' `data` decoded from their data_bytes wherever they carry them:
 * a message is stored without a `data` that differs from its signed bytes, and events written
 * before that rule may still hold one.
 */
function decodeEvent(bytes: Uint8Array): HubEvent {
  const event = HubEvent.decode(bytes);
  const proof = event.mergeUsernameProofBody;
  const messages = [
    event.mergeMessageBody?.message,
    ...(event.mergeMessageBody?.deletedMessages ?? []),
    event.pruneMessageBody?.message,
    event.revokeMessageBody?.message,
    proof?.usernameProofMessage,
    proof?.deletedUsernameProofMessage,
  ];
  for (const message of messages) {
    if (message?.dataBytes !== undefined) message.data = MessageData.decode(message.dataBytes);
  }
  return event;
}

export async function eventsFrom(db: Kysely<HubTables>, fromId: number, limit: number): Promise<HubEvent[]> {
  const rows = await db
    .selectFrom("hub_events")
    .select("event")
    .where("id", ">=", fromId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => decodeEvent(row.event));
}

/** An event as stored: its protobuf bytes carry every message in the bytes it arrived in. */
export interface StoredEvent {
  id: number;
  type: number;
  event: Uint8Array;
}

/** Stored events with fromId ≤ id < stopId, oldest first (the gRPC API sends them as they are). */
export async function storedEventsFrom(
  db: Kysely<HubTables>,
  fromId: number,
  limit: number,
  stopId = Number.MAX_SAFE_INTEGER,
): Promise<StoredEvent[]> {
  return db
    .selectFrom("hub_events")
    .select(["id", "type", "event"])
    .where("id", ">=", fromId)
    .where("id", "<", stopId)
    .orderBy("id")
    .limit(limit)
    .execute();
}

export async function storedEventById(db: Kysely<HubTables>, id: number): Promise<StoredEvent | undefined> {
  return db.selectFrom("hub_events").select(["id", "type", "event"]).where("id", "=", id).executeTakeFirst();
}

export async function eventById(db: Kysely<HubTables>, id: number): Promise<HubEvent | undefined> {
  const row = await db.selectFrom("hub_events").select("event").where("id", "=", id).executeTakeFirst();
  return row === undefined ? undefined : decodeEvent(row.event);
}

export async function newestEventId(db: Kysely<HubTables>): Promise<number | undefined> {
  const row = await db
    .selectFrom("hub_events")
    .select("id")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.id;
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
