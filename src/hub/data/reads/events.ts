/** The hub's answers about hub events: pages from an id, one event, the newest id. */
import type { Kysely } from "kysely";
import type { HubEvent } from "../../../protocol/generated/hub_event.js";
import { notFound } from "../../errors.js";
import { EVENTS_PAGE_SIZE, eventById, eventsFrom, newestEventId } from "../events.js";
import type { HubTables } from "../tables.js";

type Db = Kysely<HubTables>;

/** The hub's reads of its event log. */
export class EventReads {
  constructor(private readonly db: Db) {}

  /** Events with id ≥ fromId, oldest first, at most `limit`; the next page starts at the last id + 1. */
  async page(
    fromId: number,
    limit = EVENTS_PAGE_SIZE,
  ): Promise<{ events: HubEvent[]; nextPageEventId: number }> {
    const events = await eventsFrom(this.db, fromId, limit);
    const last = events[events.length - 1];
    return { events, nextPageEventId: last === undefined ? fromId + 1 : last.id + 1 };
  }

  /** Id of the newest event, or 0 when there is none. */
  async lastId(): Promise<number> {
    return (await newestEventId(this.db)) ?? 0;
  }

  async byId(id: number): Promise<HubEvent> {
    const found = await eventById(this.db, id);
    if (found === undefined) throw notFound("event");
    return found;
  }
}
