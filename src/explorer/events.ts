/**
 * GET /events: the hub's event log, filtered by type and fid, each event said in words: the newest
 * first under the live feed, older ones a hundred at a time, or a page from an event id on.
 */
import { unixTime } from "./fragments.js";
import type { HubEvent } from "./hubJson.js";
import { eventFids, eventSentence, fidOf } from "./eventText.js";
import { liveFeed } from "./home.js";
import { type Html, html } from "./html.js";
import { eventTime, logTail } from "./logTail.js";
import { readPeople } from "./people.js";
import { type Sources, withQuery } from "./sources.js";

/** The hub's event types, as its JSON names them (filter values). */
export const EVENT_TYPES = [
  "HUB_EVENT_TYPE_MERGE_MESSAGE",
  "HUB_EVENT_TYPE_PRUNE_MESSAGE",
  "HUB_EVENT_TYPE_REVOKE_MESSAGE",
  "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF",
  "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT",
] as const;

export interface EventsQuery {
  /** A page of the log from this id on, oldest first. */
  from?: number;
  /** The newest events before this id, newest first; the newest of all without `from` or `before`. */
  before?: number;
  type?: (typeof EVENT_TYPES)[number];
  fid?: number;
}

const PAGE = 100;

export async function eventsPage(
  sources: Sources,
  query: EventsQuery,
  now: () => number,
): Promise<{ title: string; body: Html }> {
  const keep = (event: HubEvent) =>
    (query.type === undefined || event.type === query.type) &&
    (query.fid === undefined || fidOf(event) === query.fid);
  const filter = { type: query.type, fid: query.fid };
  const log =
    query.from === undefined
      ? await tail(sources, query, keep, now)
      : await forward(sources, query.from, keep);
  const people = await readPeople(sources, log.events.flatMap(eventFids));
  const newest = query.from === undefined && query.before === undefined;
  const links = [
    log.next
      ? html`<a rel="next" href="${withQuery("/events", { ...filter, ...log.next })}">${log.nextLabel}</a>`
      : "",
    newest ? "" : html`<a href="${withQuery("/events", filter)}">Newest events</a>`,
  ].filter((link) => link !== "");
  const body = html` <form class="filters" method="get" action="/events">
      <label for="type">Type</label>
      <select id="type" name="type">
        <option value="">any</option>
        ${EVENT_TYPES.map(
          (type) =>
            html`<option value="${type}" ${type === query.type ? html` selected` : ""}>
              ${label(type)}
            </option>`,
        )}
      </select>
      <label for="fid">fid</label
      ><input id="fid" name="fid" inputmode="numeric" pattern="[0-9]*" value="${query.fid ?? ""}" />
      <button type="submit">Filter</button>
    </form>
    ${newest ? liveFeed(sources.urls().hub, filter) : ""}
    <section aria-labelledby="log-h">
      <h2 id="log-h">${log.heading}</h2>
      ${
        log.events.length === 0
          ? html`<p class="empty">No events here.</p>`
          : html`<ol class="events">
              ${log.events.map(
                (event) =>
                  html`<li>
                    <span class="event-id">#${event.id}</span> ${unixTime(eventTime(event.id) / 1000)}<br />
                    ${eventSentence(event, people)}
                  </li>`,
              )}
            </ol>`
      }
      ${links.length === 0 ? "" : html`<p class="pager">${links.map((link) => html`${link} `)}</p>`}
    </section>`;
  return { title: "Events", body };
}

interface LogView {
  events: HubEvent[];
  heading: string;
  next?: { from?: number; before?: number };
  nextLabel?: string;
}

/** The newest events (before `query.before`), newest first. */
async function tail(
  sources: Sources,
  query: EventsQuery,
  keep: (event: HubEvent) => boolean,
  now: () => number,
): Promise<LogView> {
  const { events, older } = await logTail(sources, { keep, want: PAGE, before: query.before, now });
  return {
    events,
    heading: query.before === undefined ? "Newest first" : `Before event ${query.before}, newest first`,
    next: older && events.length > 0 ? { before: events[events.length - 1]!.id } : undefined,
    nextLabel: "Older events",
  };
}

/** One page of the log from `from` on, oldest first: where a cast's page points into the log. */
async function forward(sources: Sources, from: number, keep: (event: HubEvent) => boolean): Promise<LogView> {
  const page = await sources.get<{ events: HubEvent[]; nextPageEventId: number }>(
    "hub",
    withQuery("/v1/events", { from_event_id: from }),
  );
  return {
    events: (page?.events ?? []).filter(keep),
    heading: `From event ${from}, oldest first`,
    next: page && page.events.length > 0 ? { from: page.nextPageEventId } : undefined,
    nextLabel: "Next events",
  };
}

function label(type: string): string {
  return type.replace("HUB_EVENT_TYPE_", "").toLowerCase().replaceAll("_", " ");
}
