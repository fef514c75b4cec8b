/**
 * What every SQLite connection castnet opens shares, whether on the calling thread or in a worker
 * thread (checkpointer, readers).
 */
import { createRequire } from "node:module";

/** How long a SQLite statement waits for a lock another connection holds. */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/** better-sqlite3's entry point, for worker threads whose plain CommonJS code requires it. */
export const SQLITE_DRIVER = createRequire(import.meta.url).resolve("better-sqlite3");
