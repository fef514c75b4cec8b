/**
 * Hot queries compiled once and then run with fresh parameters: building and compiling a Kysely
 * query costs more than running it on an indexed SQLite table, and merge paths and list reads run
 * several per request. Compilations are kept per database (its dialect adapter, which its
 * transactions share), since the SQL differs per engine.
 */
import { type CompiledQuery, type DialectAdapter, Kysely } from "kysely";
import type { Database } from "./database.js";

interface Compilable<Row> {
  compile(): CompiledQuery<Row>;
}

/** Per database: shape → number of parameters → compilation. */
const caches = new WeakMap<DialectAdapter, Map<string, Map<number, CompiledQuery>>>();

function sameParameter(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  return a === b;
}

/**
 * The query `build` makes, compiled only the first time a query of this `shape` and this number of
 * parameters is asked for on this database; later calls reuse that SQL with `parameters`. Counting
 * the parameters keeps apart the forms of one shape whose lists differ in length (`in (?, ?, ?)`,
 * multi-row inserts). The caller lists the parameters in the order the builder adds them; the first
 * compilation checks that it does.
 */
export function compiled<Tables, Row>(
  db: Kysely<Tables>,
  shape: string,
  build: () => Compilable<Row>,
  parameters: readonly unknown[],
): CompiledQuery<Row> {
  const adapter = db.getExecutor().adapter;
  let cache = caches.get(adapter);
  if (cache === undefined) caches.set(adapter, (cache = new Map()));
  // Shapes are literals, whose hashes V8 keeps: no key is built per call.
  let forms = cache.get(shape);
  if (forms === undefined) cache.set(shape, (forms = new Map()));
  let query = forms.get(parameters.length) as CompiledQuery<Row> | undefined;
  if (query === undefined) {
    query = build().compile();
    const same =
      query.parameters.length === parameters.length &&
      query.parameters.every((value, i) => sameParameter(value, parameters[i]));
    if (!same) throw new Error(`query "${shape}" does not take its parameters in the order given`);
    forms.set(parameters.length, query);
  }
  return { query: query.query, queryId: query.queryId, sql: query.sql, parameters };
}

/**
 * Where a query runs: a Kysely instance or transaction (on its connection, seeing the transaction's
 * own writes), or an open Database, whose `read` serves what is committed without Kysely's
 * per-query steps (database.ts) — for hot reads outside any write.
 */
export type QuerySource<Tables> = Kysely<Tables> | Database<Tables>;

/** The query builder of `source`. */
export function builderOf<Tables>(source: QuerySource<Tables>): Kysely<Tables> {
  return source instanceof Kysely ? source : source.db;
}

/** Runs `compiled(...)` on `source`. */
export async function runCompiled<Tables, Row>(
  source: QuerySource<Tables>,
  shape: string,
  build: () => Compilable<Row>,
  parameters: readonly unknown[],
): Promise<Row[]> {
  if (!(source instanceof Kysely)) return source.read(compiled(source.db, shape, build, parameters));
  return (await source.executeQuery<Row>(compiled(source, shape, build, parameters))).rows;
}

/** A query of one fixed shape, whose builder adds `parameters` in the order given. */
export function compiledOnce<Tables, Row>(
  shape: string,
  build: (db: Kysely<Tables>, parameters: readonly unknown[]) => Compilable<Row>,
): (db: Kysely<Tables>, parameters: readonly unknown[]) => Promise<Row[]> {
  return (db, parameters) => runCompiled(db, shape, () => build(db, parameters), parameters);
}
