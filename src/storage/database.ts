import { createRequire } from "node:module";
import SQLite from "better-sqlite3";
import { type CompiledQuery, Kysely, PostgresDialect } from "kysely";
import type PG from "pg";
import { startBackgroundSync } from "./backgroundSync.js";
import { createPrivateFile } from "./permissions.js";
import { type Columns, ReadConnection } from "./readConnection.js";
import { SlotPool, type WithPooledText } from "./pooledText.js";
import { Readers } from "./readers.js";
import { SQLITE_BUSY_TIMEOUT_MS } from "./sqliteSettings.js";
import { CastnetSqliteDialect } from "./sqliteDialect.js";
import { withStatementCache } from "./statementCache.js";

export type DatabaseKind = "sqlite" | "postgres";

export type DatabaseConfig = { engine: "sqlite"; path: string } | { engine: "postgres"; url: string };

/** An open database: the typed query builder and the engine it runs on (some SQL differs per engine). */
export interface Database<Tables> {
  readonly db: Kysely<Tables>;
  readonly engine: DatabaseKind;
  /**
   * Resolves once every transaction committed so far survives a power cut. Commits are durable
   * when they return, except on a SQLite file opened with `backgroundSync`.
   */
  durable(): Promise<void>;
  /**
   * Runs a compiled read-only query: on a SQLite file opened with `readers`, on a reader thread
   * (see readers.ts), so that a big read does not hold up the calling thread; on any other SQLite
   * file, on a read-only connection of the calling thread's own, the reads of one turn of the event
   * loop in one read transaction (readConnection.ts).
   */
  read<Row>(query: CompiledQuery<Row>): Promise<Row[]>;
  /**
   * `read`, answered column by column: for each of `names` (columns the query selects), its values
   * in row order. For the hottest list reads: on a SQLite file without reader threads it costs a
   * JS value per column instead of one per cell (readConnection.ts). The columns must hold
   * numbers, texts or nulls.
   */
  readColumns<Row, Name extends keyof Row & string>(
    query: CompiledQuery<Row>,
    names: readonly Name[],
  ): Promise<Columns<Row, Name>>;
  /**
   * `read` of a query of one row whose `column` is a long text or blob (a page the database
   * joined): on reader threads it may come as a PooledText (pooledText.ts), which the caller
   * releases once it is sent; elsewhere, and when no slot is free or it does not fit one, as the
   * string or Buffer `read` gives.
   */
  readLongText<Row, Column extends keyof Row & string>(
    query: CompiledQuery<Row>,
    column: Column,
  ): Promise<WithPooledText<Row, Column>[]>;
  close(): Promise<void>;
}

/** Settings for a new or opened SQLite file; PostgreSQL ignores them. */
export interface SqliteTuning {
  /** Page size of a new file (SQLite's default is 4096); an existing file keeps its own. */
  pageSize?: number;
  /** Commit without blocking on fsync, and make commits durable through `durable()` (see backgroundSync.ts). */
  backgroundSync?: boolean;
  /** Threads that run `read()` queries on connections of their own (none: on the calling thread). */
  readers?: number;
  /**
   * Memory shared with the readers for what `readLongText` reads (pooledText.ts): `count` slots
   * of `bytes` each, at most `count` such reads in flight, each a little under `bytes`. Without
   * it those come as strings and Buffers.
   */
  readerSlots?: { count: number; bytes: number };
  /**
   * Most memory the page cache of the connection that writes may take, in MiB (SQLite's default is
   * 2 MiB). It only grows as pages are touched.
   */
  writerCacheMiB?: number;
}

const settled = Promise.resolve();

function columnsOf<Row, Name extends keyof Row & string>(rows: Row[], names: readonly Name[]) {
  const columns = {} as Columns<Row, Name>;
  for (const name of names) columns[name] = rows.map((row) => row[name]);
  return columns;
}

const INT8_OID = 20;

/**
 * Opens SQLite (one file, WAL, full fsync so that an acknowledged write survives a power cut, unless
 * durability is left to `durable()` with `backgroundSync`) or a
 * PostgreSQL pool. PostgreSQL int8 values are read as JS numbers: every id castnet stores stays far
 * below 2^53 (fids, event ids of 53 bits, block numbers).
 */
export function openDatabase<Tables>(config: DatabaseConfig, tuning: SqliteTuning = {}): Database<Tables> {
  if (config.engine === "sqlite") {
    const file = config.path !== ":memory:";
    if (file) createPrivateFile(config.path);
    const sqlite = new SQLite(config.path);
    // Before WAL mode: a WAL file's page size is fixed once it has content.
    if (tuning.pageSize !== undefined) sqlite.pragma(`page_size = ${tuning.pageSize}`);
    const background = tuning.backgroundSync === true && file;
    sqlite.pragma("journal_mode = WAL");
    // With background sync a commit only writes its WAL frames; durable() makes them safe.
    sqlite.pragma(`synchronous = ${background ? "NORMAL" : "FULL"}`);
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    sqlite.pragma("foreign_keys = ON");
    if (tuning.writerCacheMiB !== undefined) sqlite.pragma(`cache_size = ${-tuning.writerCacheMiB * 1024}`);
    const sync = background ? startBackgroundSync(sqlite, config.path) : undefined;
    const db = new Kysely<Tables>({
      dialect: new CastnetSqliteDialect({ database: withStatementCache(sqlite) }),
    });
    const slots = tuning.readerSlots && new SlotPool(tuning.readerSlots.count, tuning.readerSlots.bytes);
    const readers =
      file && (tuning.readers ?? 0) > 0 ? new Readers(config.path, tuning.readers!, slots) : undefined;
    // Without reader threads, reads on a file run on a connection of their own (opened on first use).
    let connection: ReadConnection | undefined;
    const here =
      file && readers === undefined ? () => (connection ??= new ReadConnection(config.path)) : undefined;
    const read = async <Row>(query: CompiledQuery<Row>): Promise<Row[]> => {
      if (here) return here().rows(query);
      if (readers?.running) return readers.read(query);
      return (await db.executeQuery(query)).rows;
    };
    return {
      db,
      engine: "sqlite",
      durable: () => sync?.durable() ?? settled,
      read,
      readColumns: (query, names) =>
        here ? here().columns(query, names) : read(query).then((rows) => columnsOf(rows, names)),
      readLongText: (query, column) => (readers?.running ? readers.readLongText(query, column) : read(query)),
      async close() {
        connection?.close();
        await readers?.close();
        await db.destroy();
        await sync?.close();
      },
    };
  }
  // Loaded here, where a database is PostgreSQL: a process on SQLite (the default) never needs it.
  const pg = createRequire(import.meta.url)("pg") as typeof PG;
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
  const read = async <Row>(query: CompiledQuery<Row>): Promise<Row[]> => (await db.executeQuery(query)).rows;
  return {
    db,
    engine: "postgres",
    durable: () => settled,
    read,
    readColumns: (query, names) => read(query).then((rows) => columnsOf(rows, names)),
    readLongText: read,
    close: () => db.destroy(),
  };
}
