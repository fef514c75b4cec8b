import { type Kysely, sql } from "kysely";
import type { Database } from "./database.js";

const RETRYABLE_POSTGRES_CODES = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 5;

/**
 * Runs `work` in one transaction that is serialised against every other transaction with the same
 * `lockKey`, across processes: on SQLite through `BEGIN IMMEDIATE` (the write lock of the file), on
 * PostgreSQL through a transaction-scoped advisory lock. Read-validate-write sequences (one name per
 * fid, CRDT merges of one fid) are therefore race-free even with several servers on one database.
 */
export async function serializedTransaction<Tables, Result>(
  database: Database<Tables>,
  lockKey: string,
  work: (trx: Kysely<Tables>) => Promise<Result>,
): Promise<Result> {
  if (database.engine === "sqlite") {
    return database.db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
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
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`.execute(trx);
        return work(trx);
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= MAX_ATTEMPTS || typeof code !== "string" || !RETRYABLE_POSTGRES_CODES.has(code))
        throw error;
    }
  }
}
