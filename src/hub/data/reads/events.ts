/** The hub's answers about hub events: pages from an id, one event, the newest id. */
import type { Kysely } from "kysely";
import type { HubEvent } from "../../../protocol/generated/hub_event.js";
import { notFound } from "../../errors.js";
import { eventById, eventsFrom, newestEventId } from "../events.js";
import type { HubTables } from "../tables.js";

type Db = Kysely<HubTables>;

/** Events with id ≥ fromId, oldest first; the next page starts at the last id + 1. */
export async function eventsPage(
  db: Db,
  fromId: number,
  limit: number,
): Promise<{ events: HubEvent[]; nextPageEventId: number }> {
  const events = await eventsFrom(db, fromId, limit);
  const last = events[events.length - 1];
  return { events, nextPageEventId: last === undefined ? fromId + 1 : last.id + 1 };
}

export async function lastEventId(db: Db): Promise<number> {
  return (await newestEventId(db)) ?? 0;
}

export async function event(db: Db, id: number): Promise<HubEvent> {
  const found = await eventById(db, id);
  if (found === undefined) throw notFound("event");
  return found;
}
