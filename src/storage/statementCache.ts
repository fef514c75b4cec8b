import type SQLite from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

/** Kysely's view of a connection, with better-sqlite3's own statements (row mode included). */
export interface CachedStatements extends SqliteDatabase {
  prepare(sql: string): SQLite.Statement;
}

const CAPACITY = 512;

/**
 * better-sqlite3 behind Kysely, keeping prepared statements: Kysely asks for a new statement on every
 * query, and preparing costs about as much as running a small indexed read. Kysely runs one query at
 * a time on a connection, so a cached statement is never used by two queries at once.
 */
export function withStatementCache(sqlite: SQLite.Database): CachedStatements {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= CAPACITY) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
