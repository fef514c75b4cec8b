/**
 * Hot queries compiled once and then run with fresh parameters: building and compiling a Kysely
 * query costs more than running it on an indexed SQLite table, and the merge path runs a few per
 * message. The SQL differs per engine, so each engine gets its own compilation.
 */
import type { CompiledQuery, Kysely } from "kysely";
import type { Engine } from "../storage/index.js";
import type { HubTables } from "./tables.js";

interface Compilable<Row> {
  compile(): CompiledQuery<Row>;
}

/**
 * `build` must add its parameters in the order the returned function takes them; the placeholder
 * values it uses are only there to fix that order.
 */
export function compiledOnce<Row>(
  build: (db: Kysely<HubTables>) => Compilable<Row>,
): (db: Kysely<HubTables>, engine: Engine, parameters: readonly unknown[]) => Promise<Row[]> {
  const byEngine = new Map<Engine, CompiledQuery<Row>>();
  return async (db, engine, parameters) => {
    let compiled = byEngine.get(engine);
    if (compiled === undefined) {
      compiled = build(db).compile();
      if (compiled.parameters.length !== parameters.length) {
        throw new Error(
          `compiled query takes ${compiled.parameters.length} parameters, got ${parameters.length}`,
        );
      }
      byEngine.set(engine, compiled);
    }
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
