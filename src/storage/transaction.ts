import { type Kysely, sql } from "kysely";
import type { Database } from "./database.js";
import { SQLITE_BUSY_TIMEOUT_MS } from "./sqliteSettings.js";

const RETRYABLE_POSTGRES_CODES = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 5;
/** Longest pause between attempts to take SQLite's write lock, in ms. */
const SQLITE_MAX_PAUSE_MS = 10;

/**
 * Runs `work` in one transaction that is serialised against every other transaction holding the
 * same lock, across processes: on SQLite through `BEGIN IMMEDIATE` (the write lock of the file, so
 * every lock is one lock), on PostgreSQL through transaction-scoped advisory locks. The lock is a
 * name (hashed to one lock) or a list of 64-bit keys, taken in ascending order so that two
 * transactions wanting overlapping keys can never deadlock. Read-validate-write sequences (one name
 * per fid, CRDT merges of one fid) are therefore race-free even with several servers on one database.
 */
export async function serializedTransaction<Tables, Result>(
  database: Database<Tables>,
  lock: string | Iterable<bigint>,
  work: (trx: Kysely<Tables>) => Promise<Result>,
): Promise<Result> {
  if (database.engine === "sqlite") {
    return database.db.connection().execute(async (connection) => {
      await beginImmediate(connection);
      try {
        const result = await work(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    });
  }
  const keys = typeof lock === "string" ? undefined : sortedKeys(lock);
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(async (trx) => {
        if (keys === undefined) await sql`select pg_advisory_xact_lock(hashtext(${lock}))`.execute(trx);
        // unnest yields the array in order, so the locks are taken in ascending order.
        else if (keys.length > 0)
          await sql`select count(pg_advisory_xact_lock(k)) from unnest(${keys}::int8[]) as k`.execute(trx);
        return work(trx);
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= MAX_ATTEMPTS || typeof code !== "string" || !RETRYABLE_POSTGRES_CODES.has(code))
        throw error;
    }
  }
}

/**
 * `BEGIN IMMEDIATE` without blocking the thread. better-sqlite3's busy handler sleeps on the calling
 * thread, so while another connection holds the write lock (the hub's checkpointer rewinding the
 * WAL, for tens of milliseconds) every request of the process would wait with it. So the lock is
 * tried with no busy timeout and tried again after short pauses on the event loop, for as long as
 * the busy timeout would have waited. This also covers the SQLITE_BUSY that SQLite answers at once,
 * busy timeout or not, in some races with a checkpoint. Nothing has run yet, so trying again is safe.
 */
async function beginImmediate<Tables>(connection: Kysely<Tables>): Promise<void> {
  await sql`pragma busy_timeout = 0`.execute(connection);
  try {
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        await sql`begin immediate`.execute(connection);
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const busy = typeof code === "string" && code.startsWith("SQLITE_BUSY");
        if (!busy || waited >= SQLITE_BUSY_TIMEOUT_MS) throw error;
        const pause = Math.min(2 ** attempt, SQLITE_MAX_PAUSE_MS);
        await new Promise((resolve) => setTimeout(resolve, pause));
        waited += pause;
      }
    }
  } finally {
    await sql`pragma busy_timeout = ${sql.raw(String(SQLITE_BUSY_TIMEOUT_MS))}`.execute(connection);
  }
}

function sortedKeys(keys: Iterable<bigint>): string[] {
  return [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
}
