/** GET /events: the hub's event log, a page of 100 at a time from an event id, filtered, plus the live feed. */
import { castLink, fidLink, type HubMessage } from "./fragments.js";
import { liveFeed } from "./home.js";
import { type Html, html } from "./html.js";
import { type Sources, withQuery } from "./sources.js";

/** The hub's event types, as its JSON names them (filter values). */
export const EVENT_TYPES = [
  "HUB_EVENT_TYPE_MERGE_MESSAGE",
  "HUB_EVENT_TYPE_PRUNE_MESSAGE",
  "HUB_EVENT_TYPE_REVOKE_MESSAGE",
  "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF",
  "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT",
] as const;

export interface HubEvent {
  type: string;
  id: number;
  mergeMessageBody?: { message?: HubMessage };
  pruneMessageBody?: { message?: HubMessage };
  revokeMessageBody?: { message?: HubMessage };
  mergeUsernameProofBody?: { usernameProof?: { fid: number; name: string } };
  mergeOnChainEventBody?: { onChainEvent?: { fid: number; type: string } };
}

export interface EventsQuery {
  from?: number;
  type?: (typeof EVENT_TYPES)[number];
  fid?: number;
}

/** Hub event ids count milliseconds from 2021-01-01 in their upper bits (docs/hub.md). */
const EVENT_EPOCH_MS = 1_609_459_200_000;
const SEQUENCE_BITS = 4096;

/** The first hub event id at or after `unixMs`. */
export function eventIdAt(unixMs: number): number {
  return Math.max(0, Math.floor(unixMs - EVENT_EPOCH_MS) * SEQUENCE_BITS);
}

export async function eventsPage(
  sources: Sources,
  query: EventsQuery,
): Promise<{ title: string; body: Html }> {
  const page = await sources.get<{ events: HubEvent[]; nextPageEventId: number }>(
    "hub",
    withQuery("/v1/events", { from_event_id: query.from ?? 0 }),
  );
  const events = (page?.events ?? []).filter(
    (event) =>
      (query.type === undefined || event.type === query.type) &&
      (query.fid === undefined || fidOf(event) === query.fid),
  );
  const next =
    page && page.events.length > 0
      ? withQuery("/events", { ...query, from: page.nextPageEventId })
      : undefined;
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
    <section aria-labelledby="log-h">
      <h2 id="log-h">From event ${query.from ?? 0}, oldest first</h2>
      ${
        events.length === 0
          ? html`<p class="empty">No events here.</p>`
          : html`<ol class="events">
              ${events.map((event) => html`<li>${describe(event)}</li>`)}
            </ol>`
      }
      ${next ? html`<p><a rel="next" href="${next}">Next events</a></p>` : ""}
    </section>
    ${liveFeed(sources.urls().hub, { type: query.type, fid: query.fid })}`;
  return { title: "Events", body };
}

function label(type: string): string {
  return type.replace("HUB_EVENT_TYPE_", "").toLowerCase().replaceAll("_", " ");
}

function messageOf(event: HubEvent): HubMessage | undefined {
  return (
    event.mergeMessageBody?.message ?? event.pruneMessageBody?.message ?? event.revokeMessageBody?.message
  );
}

function fidOf(event: HubEvent): number | undefined {
  return (
    messageOf(event)?.data.fid ??
    event.mergeUsernameProofBody?.usernameProof?.fid ??
    event.mergeOnChainEventBody?.onChainEvent?.fid
  );
}

function describe(event: HubEvent): Html {
  const message = messageOf(event);
  const fid = fidOf(event);
  const what = message
    ? html`${message.data.type.replace("MESSAGE_TYPE_", "").toLowerCase()}${message.data.type === "MESSAGE_TYPE_CAST_ADD" ? html` ${castLink({ fid: message.data.fid, hash: message.hash })}` : ""}`
    : event.mergeUsernameProofBody?.usernameProof
      ? html`name
          <a href="/name/${event.mergeUsernameProofBody.usernameProof.name}"
            >${event.mergeUsernameProofBody.usernameProof.name}</a
          >`
      : html`${event.mergeOnChainEventBody?.onChainEvent?.type.replace("EVENT_TYPE_", "").toLowerCase() ?? ""}`;
  return html`<span class="event-id">#${event.id}</span> ${label(event.type)}:
    ${what}${fid === undefined ? "" : html` · ${fidLink(fid)}`}`;
}
