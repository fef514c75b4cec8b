/**
 * What every SQLite connection castnet opens shares, whether on the calling thread or in a worker
 * thread of its own (the checkpointer, the readers).
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How long a SQLite statement waits for a lock another connection holds. */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

const DRIVER = createRequire(import.meta.url).resolve("better-sqlite3");

/**
 * Starts `body` on a worker thread after opening `db`, a connection of its own to the file at
 * `path`; `body` finds `parentPort`, and `data` as `workerData.data`. The code is plain CommonJS,
 * so that it runs the same from TypeScript sources and from dist/, without loading a TypeScript
 * loader into the thread.
 */
export function startSqliteWorker(body: string, path: string, data: object = {}): Worker {
  const code = `
const { parentPort, workerData } = require("node:worker_threads");
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.path);
db.pragma("busy_timeout = " + workerData.busyTimeoutMs);
${body}`;
  return new Worker(code, {
    eval: true,
    workerData: { driver: DRIVER, path, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS, data },
  });
}
