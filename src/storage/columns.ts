import type { ColumnDataType } from "kysely";
import type { DatabaseKind } from "./database.js";

/** Column types whose spelling differs between the engines; everything else is portable SQL. */
export function bytesType(engine: DatabaseKind): ColumnDataType {
  return engine === "postgres" ? "bytea" : "blob";
}

/** An auto-incrementing 64-bit primary key column type (use with `.primaryKey()` and, on SQLite, `.autoIncrement()`). */
export function serialType(engine: DatabaseKind): ColumnDataType {
  return engine === "postgres" ? "bigserial" : "integer";
}
