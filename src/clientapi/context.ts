import type { Logger } from "../http/index.js";
import type { Database } from "../storage/index.js";
import type { Cursors } from "./cursor.js";
import type { ClientApiTables } from "./tables.js";

/**
 * What every domain of the client API is built with (each domain is a class holding it): the
 * database its rules read and write, the clock, the page cursors' signer and the log.
 */
export interface ApiContext {
  database: Database<ClientApiTables>;
  /** Unix seconds; injectable through the part's `now`. */
  nowSeconds: () => number;
  cursors: Cursors;
  logger: Logger;
}
