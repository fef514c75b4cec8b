/** The devchain's HTTP API (docs/devchain.md), typed from its OpenAPI document. */
import type { Client } from "openapi-fetch";
import { DevchainResponseError, type DevchainErrorBody } from "./errors.js";
import type { paths } from "./generated/devchain.js";
import {
  type AnswerOf,
  type ClientOptions,
  type GetPath,
  type QueryArgs,
  dataOf,
  openClient,
} from "./transport.js";

export type ChainEvent = NonNullable<AnswerOf<paths, "/v1/events">["events"]>[number];

export class DevchainClient {
  /** The openapi-fetch client for any route; answers outside 2xx throw DevchainResponseError. */
  readonly api: Client<paths>;

  constructor(
    readonly baseUrl: string,
    options: ClientOptions = {},
  ) {
    this.api = openClient<paths, DevchainErrorBody>(baseUrl, options, DevchainResponseError);
  }

  /** GET a route with its query; the 200 body. */
  get<P extends GetPath<paths>>(path: P, ...[query]: QueryArgs<paths, P>): Promise<AnswerOf<paths, P>> {
    return dataOf(this.api.GET(path as "/v1/blocks/latest", { params: { query } } as never)) as Promise<
      AnswerOf<paths, P>
    >;
  }

  /** Every on-chain event from block `fromBlock` on, `limit` a page, whole blocks at a time. */
  async *events(fromBlock = 0, limit?: number): AsyncGenerator<ChainEvent> {
    let from = fromBlock;
    for (;;) {
      const page = await this.get("/v1/events", {
        from_block: from,
        ...(limit === undefined ? {} : { limit }),
      });
      yield* page.events ?? [];
      if (!page.hasMore || page.nextFromBlock === undefined) return;
      from = page.nextFromBlock;
    }
  }

  /** A fid's custody and recovery addresses, active signers and storage units. */
  async fid(fid: number): Promise<AnswerOf<paths, "/v1/fids/{fid}">> {
    return dataOf(this.api.GET("/v1/fids/{fid}", { params: { path: { fid: String(fid) } } }));
  }
}
