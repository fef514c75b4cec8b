import SQLite from "better-sqlite3";
import type { CompiledQuery } from "kysely";
import { SQLITE_BUSY_TIMEOUT_MS } from "./sqliteSettings.js";
import { type CachedStatements, withStatementCache } from "./statementCache.js";

interface PendingRead {
  sql: string;
  parameters: readonly unknown[];
  arrays: boolean;
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

/**
 * A read-only connection to a SQLite file on the calling thread, for hot reads. Kysely's one
 * connection runs its queries one at a time, after any transaction it is in; a read here skips
 * that queue and Kysely's per-query steps (about 10 µs). The reads asked for in one turn of the
 * event loop run together in one read transaction: beginning and ending one (locks on the file and
 * its WAL index) costs more than a small indexed read. A batch starts after every read in it was
 * asked for, so each read sees every transaction committed before it was asked; nothing is kept
 * between batches. Rows come as objects, or as arrays of their columns in select order, which
 * better-sqlite3 builds about twice as fast.
 */
export class ReadConnection {
  readonly #sqlite: SQLite.Database;
  readonly #statements: CachedStatements;
  #pending: PendingRead[] = [];

  constructor(path: string) {
    this.#sqlite = new SQLite(path);
    this.#sqlite.pragma("query_only = 1");
    this.#sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    this.#statements = withStatementCache(this.#sqlite);
  }

  rows<Row>(query: CompiledQuery<Row>): Promise<Row[]> {
    return this.#ask(query, false) as Promise<Row[]>;
  }

  arrays<Columns extends readonly unknown[]>(query: CompiledQuery): Promise<Columns[]> {
    return this.#ask(query, true) as Promise<Columns[]>;
  }

  close(): void {
    this.#statements.close();
  }

  #ask(query: CompiledQuery, arrays: boolean): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => this.#flush());
      this.#pending.push({ sql: query.sql, parameters: query.parameters, arrays, resolve, reject });
    });
  }

  #flush(): void {
    const batch = this.#pending;
    this.#pending = [];
    // A lone read is its own transaction already.
    const together = batch.length > 1;
    try {
      if (together) this.#statements.prepare("begin").run();
      for (const read of batch) {
        try {
          read.resolve(this.#statements.prepare(read.sql).raw(read.arrays).all(read.parameters));
        } catch (error) {
          read.reject(error);
        }
      }
    } catch (error) {
      // `begin` failed (the connection is closed): no read ran.
      for (const read of batch) read.reject(error);
    } finally {
      if (together && this.#sqlite.inTransaction) {
        try {
          this.#sqlite.exec("commit");
        } catch {
          // Ending a read transaction changes nothing stored, and its reads have their answers.
        }
      }
    }
  }
}
