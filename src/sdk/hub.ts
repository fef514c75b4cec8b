/** The hub's HTTP API (docs/hub.md), typed from its OpenAPI document. */
import type { Client } from "openapi-fetch";
import type { Message } from "../protocol/generated/message.js";
import { encodeMessage } from "../protocol/message.js";
import { HubResponseError, type HubErrorBody } from "./errors.js";
import type { components, paths } from "./generated/hub.js";
import {
  type AnswerOf,
  type ClientOptions,
  type GetPath,
  type PathsWith,
  type QueryArgs,
  type QueryOf,
  dataOf,
  openClient,
} from "./transport.js";

/** A message as the hub answers it in JSON (neutral enum spellings; numbers for values it has no name for). */
export type MessageJson = components["schemas"]["Message"];
export type HubPath = GetPath<paths>;
/** The lists that page with `pageToken` / `nextPageToken`. */
export type HubPagedPath = PathsWith<paths, "nextPageToken">;
/** The paged lists of messages. */
export type HubMessagesPath = HubPagedPath & PathsWith<paths, "messages">;
export type HubEvent = AnswerOf<paths, "/v1/events">["events"][number];

/** A type with every enum widened to number, so that another library's enums of the same values fit. */
type WithNumericEnums<T> = T extends Uint8Array
  ? T
  : T extends number
    ? number
    : T extends readonly (infer Item)[]
      ? WithNumericEnums<Item>[]
      : T extends object
        ? { [K in keyof T]: WithNumericEnums<T[K]> }
        : T;

/**
 * A Message object: castnet/protocol's, or another ts-proto Message of the same schema (such as
 * @farcaster/core's), whose enums are declared apart but hold the same numbers.
 */
export type MessageObject = WithNumericEnums<Message>;

export class HubClient {
  /** The openapi-fetch client for any route; answers outside 2xx throw HubResponseError. */
  readonly api: Client<paths>;

  constructor(
    readonly baseUrl: string,
    options: ClientOptions = {},
  ) {
    this.api = openClient<paths, HubErrorBody>(baseUrl, options, HubResponseError);
  }

  /** GET a route with its query; the 200 body. */
  get<P extends HubPath>(path: P, ...[query]: QueryArgs<paths, P>): Promise<AnswerOf<paths, P>> {
    return dataOf(this.api.GET(path as "/v1/info", { params: { query } } as never)) as Promise<
      AnswerOf<paths, P>
    >;
  }

  /**
   * Submits one message: its protobuf bytes, or a Message object (castnet/protocol's, or any other
   * ts-proto Message of the same schema, such as @farcaster/core's), encoded here. Answers the
   * message as the hub stored it.
   */
  submitMessage(message: Uint8Array | MessageObject): Promise<MessageJson> {
    const bytes = message instanceof Uint8Array ? message : encodeMessage(message as Message);
    return dataOf(
      this.api.POST("/v1/submitMessage", {
        body: bytes as never,
        bodySerializer: (body: unknown) => body,
        headers: { "content-type": "application/octet-stream" },
      }),
    );
  }

  /** Every page of a list, from the query's pageToken (or the start) to the last page. */
  async *pages<P extends HubPagedPath>(
    path: P,
    query: QueryOf<paths, P>,
  ): AsyncGenerator<AnswerOf<paths, P>> {
    let pageToken = (query as { pageToken?: string }).pageToken;
    for (;;) {
      const page = await this.get(path, ...([{ ...(query as object), pageToken }] as QueryArgs<paths, P>));
      yield page;
      // "" ends a message list; /v1/fids leaves the token out on its last page.
      const next = (page as { nextPageToken?: string }).nextPageToken;
      if (next === undefined || next === "") return;
      pageToken = next;
    }
  }

  /** Every message of a paged list, across its pages. */
  async *messages<P extends HubMessagesPath>(path: P, query: QueryOf<paths, P>): AsyncGenerator<MessageJson> {
    for await (const page of this.pages(path, query)) yield* (page as { messages: MessageJson[] }).messages;
  }

  /** Every hub event from `fromEventId` (inclusive; the oldest kept when absent) to the newest. */
  async *events(fromEventId?: number): AsyncGenerator<HubEvent> {
    let from = fromEventId;
    for (;;) {
      const page = await this.get("/v1/events", from === undefined ? {} : { from_event_id: from });
      if (page.events.length === 0) return;
      yield* page.events;
      from = page.nextPageEventId;
    }
  }

  /** The URL of the server-sent event stream, from `fromEventId` (inclusive) or the next event. */
  eventStreamUrl(fromEventId?: number): string {
    const url = new URL(`${this.baseUrl.replace(/\/+$/, "")}/v1/events/stream`);
    if (fromEventId !== undefined) url.searchParams.set("from_event_id", String(fromEventId));
    return url.toString();
  }
}
