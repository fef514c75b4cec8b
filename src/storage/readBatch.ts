import type SQLite from "better-sqlite3";
import type { CompiledQuery, Kysely, SqliteDatabase } from "kysely";

interface PendingRead {
  query: CompiledQuery;
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

/**
 * Reads of a SQLite connection run together in one read transaction per turn of the event loop.
 * Beginning and ending a read transaction (locks on the file and its WAL index) costs a server
 * more than a small indexed read itself, so under load most of a cheap GET went there. A batch
 * begins after every read in it was asked for, so each read still sees every commit made before it
 * was asked; nothing is kept between batches. A batch holds Kysely's one connection, so it never
 * runs inside a transaction some caller has open.
 */
export function batchedReads(
  db: Kysely<unknown>,
  sqlite: SQLite.Database,
  statements: SqliteDatabase,
): <Row>(query: CompiledQuery<Row>) => Promise<Row[]> {
  let pending: PendingRead[] = [];

  const runOne = (read: PendingRead) => {
    try {
      read.resolve(statements.prepare(read.query.sql).all(read.query.parameters));
    } catch (error) {
      read.reject(error);
    }
  };

  const runAll = (batch: readonly PendingRead[]) => {
    // A lone read is its own transaction: begin and commit would only add to it.
    if (batch.length === 1) return runOne(batch[0]!);
    statements.prepare("begin").run([]);
    try {
      for (const read of batch) runOne(read);
    } finally {
      if (sqlite.inTransaction) statements.prepare("commit").run([]);
    }
  };

  const flush = async () => {
    const batch = pending;
    pending = [];
    try {
      await db.connection().execute(async () => runAll(batch));
    } catch (error) {
      // Reads already settled ignore this.
      for (const read of batch) read.reject(error);
    }
  };

  return <Row>(query: CompiledQuery<Row>) =>
    new Promise<Row[]>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ query, resolve: resolve as (rows: unknown[]) => void, reject });
    });
}
