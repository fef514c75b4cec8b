import SQLite from "better-sqlite3";
import type { CompiledQuery } from "kysely";
import { SQLITE_BUSY_TIMEOUT_MS } from "./sqliteSettings.js";
import { type CachedStatements, withStatementCache } from "./statementCache.js";

/** For each of `Name`, the values of that column of rows of type `Row`, in row order. */
export type Columns<Row, Name extends keyof Row> = { [K in Name]: Row[K][] };

interface PendingRead {
  sql: string;
  parameters: readonly unknown[];
  /** The query's columns when it is read column by column; otherwise rows come as objects. */
  columns: readonly string[] | undefined;
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/** More distinct queries read column by column than any caller has: a bound, not a working size. */
const COLUMNWISE_CAPACITY = 256;

const sameNames = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name, i) => name === b[i]);

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A read-only connection to a SQLite file on the calling thread, for hot reads. Kysely's one
 * connection runs its queries one at a time, after any transaction it is in; a read here skips
 * that queue and Kysely's per-query steps (about 10 µs). The reads asked for in one turn of the
 * event loop run together in one read transaction: beginning and ending one (locks on the file and
 * its WAL index) costs more than a small indexed read. A batch starts after every read in it was
 * asked for, so each read sees every transaction committed before it was asked; nothing is kept
 * between batches. Rows come as objects, or column by column (`columns`): SQLite gathers each
 * column into one JSON array, so the driver makes a string per column instead of a JS value per
 * cell, and making JS values is most of what a page of small rows costs better-sqlite3.
 */
export class ReadConnection {
  readonly #sqlite: SQLite.Database;
  readonly #statements: CachedStatements;
  #pending: PendingRead[] = [];
  /** A query's SQL → the SQL that reads it column by column, and the columns it reads. */
  readonly #columnwise = new Map<string, { names: readonly string[]; sql: string }>();

  constructor(path: string) {
    this.#sqlite = new SQLite(path);
    this.#sqlite.pragma("query_only = 1");
    this.#sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    this.#statements = withStatementCache(this.#sqlite);
  }

  rows<Row>(query: CompiledQuery<Row>): Promise<Row[]> {
    return this.#ask(query.sql, query.parameters, undefined) as Promise<Row[]>;
  }

  /**
   * The values of each of `names`, the query's columns, in row order. SQLite feeds an aggregate the
   * rows of its subquery in the order the subquery yields them, so each array keeps the query's
   * ORDER BY. The columns must hold numbers, texts or nulls: JSON has no blobs.
   */
  columns<Row, Name extends keyof Row & string>(
    query: CompiledQuery<Row>,
    names: readonly Name[],
  ): Promise<Columns<Row, Name>> {
    let columnwise = this.#columnwise.get(query.sql);
    if (columnwise === undefined || !sameNames(columnwise.names, names)) {
      if (this.#columnwise.size >= COLUMNWISE_CAPACITY) this.#columnwise.clear();
      const arrays = names.map((name) => `json_group_array(${quoted(name)})`).join(", ");
      columnwise = { names: [...names], sql: `select ${arrays} from (${query.sql})` };
      this.#columnwise.set(query.sql, columnwise);
    }
    return this.#ask(columnwise.sql, query.parameters, names) as Promise<Columns<Row, Name>>;
  }

  close(): void {
    this.#statements.close();
  }

  #ask(
    sql: string,
    parameters: readonly unknown[],
    columns: readonly string[] | undefined,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => this.#flush());
      this.#pending.push({ sql, parameters, columns, resolve, reject });
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
          const statement = this.#statements.prepare(read.sql);
          read.resolve(
            read.columns === undefined
              ? statement.raw(false).all(read.parameters)
              : parseColumns(read.columns, statement.raw(true).get(read.parameters) as string[]),
          );
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
          this.#statements.prepare("commit").run();
        } catch {
          // Ending a read transaction changes nothing stored, and its reads have their answers.
        }
      }
    }
  }
}

function parseColumns(names: readonly string[], arrays: string[]): Record<string, unknown[]> {
  const columns: Record<string, unknown[]> = {};
  for (let i = 0; i < names.length; i++) columns[names[i]!] = JSON.parse(arrays[i]!) as unknown[];
  return columns;
}
