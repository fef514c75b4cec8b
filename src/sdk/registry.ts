/** The name registry's HTTP API (docs/registry.md), typed from its OpenAPI document. */
import type { Client } from "openapi-fetch";
import { RegistryResponseError, type RegistryErrorBody } from "./errors.js";
import type { paths } from "./generated/registry.js";
import {
  type AnswerOf,
  type ClientOptions,
  type GetPath,
  type QueryArgs,
  type QueryOf,
  dataOf,
  openClient,
} from "./transport.js";

export type Transfer = AnswerOf<paths, "/transfers">["transfers"][number];
export type TransferRequest = NonNullable<
  paths["/transfers"]["post"]["requestBody"]
>["content"]["application/json"];
export type TransfersQuery = Omit<
  NonNullable<QueryOf<paths, "/transfers">>,
  "from_id" | "fromId" | "from_ts"
>;

export class RegistryClient {
  /** The openapi-fetch client for any route; answers outside 2xx throw RegistryResponseError. */
  readonly api: Client<paths>;

  constructor(
    readonly baseUrl: string,
    options: ClientOptions = {},
  ) {
    this.api = openClient<paths, RegistryErrorBody>(baseUrl, options, RegistryResponseError);
  }

  /** GET a route with its query; the 200 body. */
  get<P extends GetPath<paths>>(path: P, ...[query]: QueryArgs<paths, P>): Promise<AnswerOf<paths, P>> {
    return dataOf(this.api.GET(path as "/signer", { params: { query } } as never)) as Promise<
      AnswerOf<paths, P>
    >;
  }

  /**
   * Every transfer matching the query, in id order, after `afterId` (exclusive, as `from_id`): pages
   * of 100 follow each other by the last id seen until one comes back empty.
   */
  async *transfers(query: TransfersQuery = {}, afterId = 0): AsyncGenerator<Transfer> {
    let from = afterId;
    for (;;) {
      const { transfers } = await this.get("/transfers", { ...query, from_id: from });
      if (transfers.length === 0) return;
      yield* transfers;
      from = transfers[transfers.length - 1]!.id;
    }
  }

  /** The name's latest transfer; a 404 RegistryResponseError when the name is not registered. */
  async current(query: QueryOf<paths, "/transfers/current">): Promise<Transfer> {
    return (await this.get("/transfers/current", query)).transfer;
  }

  async currentTime(): Promise<number> {
    return (await this.get("/current-time")).currentTime;
  }

  /** Registers, transfers or unregisters a name with the owner's signed request. */
  async transfer(body: TransferRequest): Promise<Transfer> {
    return (await dataOf(this.api.POST("/transfers", { body }))).transfer;
  }
}
