import { type Kysely, sql } from "kysely";
import type { Database } from "./database.js";

const RETRYABLE_POSTGRES_CODES = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 5;
/** Waits between attempts to take SQLite's write lock, in ms: about two seconds in all. */
const SQLITE_BEGIN_BACKOFF_MS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

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
 * `BEGIN IMMEDIATE`, tried again after a pause when SQLite answers SQLITE_BUSY at once: the busy
 * timeout covers a writer holding the lock, but in WAL mode SQLite skips the busy handler in some
 * races with a checkpoint that rewinds the WAL, and then only a later attempt can succeed. Nothing
 * has been done yet, so trying again is safe.
 */
async function beginImmediate<Tables>(connection: Kysely<Tables>): Promise<void> {
  for (const pause of [...SQLITE_BEGIN_BACKOFF_MS, undefined]) {
    try {
      await sql`begin immediate`.execute(connection);
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (pause === undefined || typeof code !== "string" || !code.startsWith("SQLITE_BUSY")) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

function sortedKeys(keys: Iterable<bigint>): string[] {
  return [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
}
