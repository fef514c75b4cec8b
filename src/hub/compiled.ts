/**
 * Hot queries compiled once and then run with fresh parameters: building and compiling a Kysely
 * query costs more than running it on an indexed SQLite table, and the merge path and the list
 * reads run several per request. The SQL differs per engine, so each engine has its own cache.
 */
import type { CompiledQuery, Kysely } from "kysely";
import type { Engine } from "../storage/index.js";
import type { HubTables } from "./tables.js";

interface Compilable<Row> {
  compile(): CompiledQuery<Row>;
}

const cache = new Map<string, CompiledQuery>();

function sameParameter(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  return a === b;
}

/**
 * Runs the query `build` makes, compiling it only the first time a query of this `shape` runs on
 * this engine; later runs reuse that SQL with `parameters`. The caller lists the parameters in the
 * order the builder adds them; the first compilation checks that it does.
 */
export async function runCompiled<Row>(
  db: Kysely<HubTables>,
  engine: Engine,
  shape: string,
  build: () => Compilable<Row>,
  parameters: readonly unknown[],
): Promise<Row[]> {
  const key = `${engine}:${shape}`;
  let compiled = cache.get(key) as CompiledQuery<Row> | undefined;
  if (compiled === undefined) {
    compiled = build().compile();
    const same =
      compiled.parameters.length === parameters.length &&
      compiled.parameters.every((value, i) => sameParameter(value, parameters[i]));
    if (!same) throw new Error(`query "${shape}" does not take its parameters in the order given`);
    cache.set(key, compiled);
  }
  return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
}

/** A query of one fixed shape, whose builder adds `parameters` in the order given. */
export function compiledOnce<Row>(
  shape: string,
  build: (db: Kysely<HubTables>, parameters: readonly unknown[]) => Compilable<Row>,
): (db: Kysely<HubTables>, engine: Engine, parameters: readonly unknown[]) => Promise<Row[]> {
  return (db, engine, parameters) => runCompiled(db, engine, shape, () => build(db, parameters), parameters);
}
