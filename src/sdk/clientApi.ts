/** The client API's HTTP API (docs/clientapi.md), typed from its OpenAPI document. */
import type { Client } from "openapi-fetch";
import { ClientApiResponseError, type ClientApiErrorBody } from "./errors.js";
import type { paths } from "./generated/clientApi.js";
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

/** The lists that page with `cursor` / `next.cursor`. */
export type ClientApiPagedPath = PathsWith<paths, "next">;
export type SignedKeyRequest = AnswerOf<paths, "/v2/signed-key-request">["result"]["signedKeyRequest"];
/** What an approving wallet signs: the key gateway `Add` as eth_signTypedData_v4 JSON. */
export type KeyRequestApproval = AnswerOf<paths, "/v2/signed-key-request/approval">["result"]["typedData"];
export type SignedKeyRequestBody = NonNullable<
  paths["/v2/signed-key-requests"]["post"]["requestBody"]
>["content"]["application/json"];

export class ClientApiClient {
  /** The openapi-fetch client for any route; answers outside 2xx throw ClientApiResponseError. */
  readonly api: Client<paths>;

  constructor(
    readonly baseUrl: string,
    options: ClientOptions = {},
  ) {
    this.api = openClient<paths, ClientApiErrorBody>(baseUrl, options, ClientApiResponseError);
  }

  /** GET a route with its query; the 200 body (`{result}`, with `next` on a page that has a successor). */
  get<P extends GetPath<paths>>(path: P, ...[query]: QueryArgs<paths, P>): Promise<AnswerOf<paths, P>> {
    return dataOf(this.api.GET(path as "/v2/all-channels", { params: { query } } as never)) as Promise<
      AnswerOf<paths, P>
    >;
  }

  /** The `result` of every page of a list, from the query's cursor (or the start) to the last page. */
  async *pages<P extends ClientApiPagedPath>(
    path: P,
    query: QueryOf<paths, P>,
  ): AsyncGenerator<AnswerOf<paths, P>["result"]> {
    let cursor = (query as { cursor?: string } | undefined)?.cursor;
    for (;;) {
      const page = await this.get(path, ...([{ ...(query as object), cursor }] as QueryArgs<paths, P>));
      yield (page as { result: AnswerOf<paths, P>["result"] }).result;
      // No `next` means the last page (docs/clientapi.md, Paging).
      const next = (page as { next?: { cursor: string } }).next;
      if (next === undefined) return;
      cursor = next.cursor;
    }
  }

  /** Creates a signed key request for an app's key; `result.signedKeyRequest` holds its token and deep link. */
  async createKeyRequest(body: SignedKeyRequestBody): Promise<SignedKeyRequest> {
    return (await dataOf(this.api.POST("/v2/signed-key-requests", { body }))).result.signedKeyRequest;
  }

  /** A signed key request by its token, with its state. */
  async keyRequest(token: string): Promise<SignedKeyRequest> {
    return (await this.get("/v2/signed-key-request", { token })).result.signedKeyRequest;
  }
}
