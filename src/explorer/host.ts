/**
 * What the explorer needs of the server it is mounted on (the client API's, by the stack): the
 * signed key requests it shows for approval, read in process since the page must know a request's
 * deadline, which the public JSON leaves out; and the server's error shape, so that the refusals
 * the server makes for page routes (schema checks, unknown files) answer and are documented in it.
 */
import type { KeyRequestView } from "./approve.js";

export interface ExplorerHost {
  /** The request with this token, or undefined when there is none. */
  keyRequest(token: string): Promise<KeyRequestView | undefined>;
  /** The server's JSON error body schema (with its `$id`), for the pages' OpenAPI answers. */
  errorSchema: { $id: string } & Record<string, unknown>;
  /** The server's "not found" refusal, answered in its error shape. */
  notFound(message: string): Error;
}
