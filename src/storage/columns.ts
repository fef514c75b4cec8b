import { type ColumnDataType, type RawBuilder, sql } from "kysely";
import type { DatabaseKind } from "./database.js";

/** Column types whose spelling differs between the engines; everything else is portable SQL. */
export function bytesType(engine: DatabaseKind): ColumnDataType {
  return engine === "postgres" ? "bytea" : "blob";
}

/** An auto-incrementing 64-bit primary key column type (use with `.primaryKey()` and, on SQLite, `.autoIncrement()`). */
export function serialType(engine: DatabaseKind): ColumnDataType {
  return engine === "postgres" ? "bigserial" : "integer";
}

/**
 * A bytes column as `0x` and lowercase hex, computed by the engine: a hot read then gets the text
 * it answers with instead of a Buffer per value that JavaScript turns into hex.
 */
export function hexOf(engine: DatabaseKind, column: string): RawBuilder<string> {
  return engine === "postgres"
    ? sql<string>`'0x' || encode(${sql.ref(column)}, 'hex')`
    : sql<string>`'0x' || lower(hex(${sql.ref(column)}))`;
}
