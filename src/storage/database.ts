import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { withStatementCache } from "./statementCache.js";

export type Engine = "sqlite" | "postgres";

export type DatabaseConfig = { engine: "sqlite"; path: string } | { engine: "postgres"; url: string };

/** An open database: the typed query builder and the engine it runs on (some SQL differs per engine). */
export interface Database<Tables> {
  readonly db: Kysely<Tables>;
  readonly engine: Engine;
  close(): Promise<void>;
}

const INT8_OID = 20;

/**
 * Opens SQLite (one file, WAL, full fsync so that an acknowledged write survives a power cut) or a
 * PostgreSQL pool. PostgreSQL int8 values are read as JS numbers: every id castnet stores stays far
 * below 2^53 (fids, event ids of 53 bits, block numbers).
 */
export function openDatabase<Tables>(config: DatabaseConfig): Database<Tables> {
  if (config.engine === "sqlite") {
    if (config.path !== ":memory:") mkdirSync(dirname(config.path), { recursive: true });
    const sqlite = new SQLite(config.path);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("busy_timeout = 10000");
    sqlite.pragma("foreign_keys = ON");
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, engine: "sqlite", close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as never,
    },
  });
  // An idle client whose server connection dies emits 'error'; unhandled, that would crash the process.
  // The pool drops such clients, and the next query gets a fresh connection or a real error.
  pool.on("error", () => undefined);
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: "postgres", close: () => db.destroy() };
}
