/**
 * What the four clients share: an openapi-fetch client over a part's generated paths that turns every
 * answer outside 2xx into the API's typed error, and the types that read a GET route's query and
 * answer from those paths.
 */
import createClient, { type Client } from "openapi-fetch";

export interface ClientOptions {
  /** The fetch to call; globalThis.fetch unless given (a test double, a proxy agent, …). */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The operator's --admin-token, sent as `Authorization: Bearer` for operator routes. */
  adminToken?: string;
}

/** One of the API error classes: made from the status and the parsed body. */
export type ErrorClass<Body> = new (status: number, body: Body | undefined) => Error;

export function openClient<Paths extends object, Body>(
  baseUrl: string,
  options: ClientOptions,
  toError: ErrorClass<Body>,
): Client<Paths> {
  const headers = { ...options.headers };
  if (options.adminToken !== undefined) headers.authorization = `Bearer ${options.adminToken}`;
  const client = createClient<Paths>({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  client.use({
    async onResponse({ response }) {
      if (response.ok) return undefined;
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as Body | undefined;
      throw new toError(response.status, body);
    },
  });
  return client;
}

/** The data of an answer the client's middleware let through (a 2xx). */
export async function dataOf<T>(pending: Promise<{ data?: T }>): Promise<T> {
  return (await pending).data as T;
}

type Json<Answer> = Answer extends { content: { "application/json": infer Body } } ? Body : never;

/** The paths of `Paths` that take GET. */
export type GetPath<Paths> = {
  [P in keyof Paths]: Paths[P] extends { get: object } ? P : never;
}[keyof Paths] &
  string;

/** The query a GET route takes. */
export type QueryOf<Paths, P extends keyof Paths> = Paths[P] extends {
  get: { parameters: { query?: infer Query } };
}
  ? Query
  : never;

/** The query argument of a GET route: optional when the route needs none. */
export type QueryArgs<Paths, P extends keyof Paths> =
  undefined extends QueryOf<Paths, P> ? [query?: QueryOf<Paths, P>] : [query: QueryOf<Paths, P>];

/** The JSON body of a GET route's 200. */
export type AnswerOf<Paths, P extends keyof Paths> = Paths[P] extends {
  get: { responses: { 200: infer Answer } };
}
  ? Json<Answer>
  : never;

/** The GET paths whose 200 body has the key K (a page token, a list, …). */
export type PathsWith<Paths, K extends string> = {
  [P in GetPath<Paths>]: K extends keyof AnswerOf<Paths, P> ? P : never;
}[GetPath<Paths>];
