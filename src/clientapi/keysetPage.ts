import type { SelectQueryBuilder } from "kysely";
import type { Keyset } from "./paging.js";
import type { ClientApiTables } from "./tables.js";

/** A table of the client API whose rows have an `id` and a column `Key` that a list is ordered by. */
type KeysetTable<Key extends string> = {
  [T in keyof ClientApiTables]: ClientApiTables[T] extends Record<Key | "id", unknown> ? T : never;
}[keyof ClientApiTables];

/**
 * One keyset page of `query`: at most `limit` rows, after the position `after`, in the order of
 * (`key`, id), both `direction`. It adds, after the query's own parameters, those of
 * `keysetPageParameters`.
 */
export function keysetPage<
  Key extends string,
  Table extends KeysetTable<Key>,
  Query extends SelectQueryBuilder<ClientApiTables, Table, object>,
>(query: Query, key: Key, direction: "asc" | "desc", after: Keyset | undefined, limit: number): Query {
  const past = direction === "desc" ? "<" : ">";
  // Kysely cannot see that `key` names a column of every table the type admits.
  const column = key as never;
  return query
    .$if(after !== undefined, (q) =>
      q.where((eb) => eb(eb.refTuple(column, "id" as never), past, eb.tuple(after![0], after![1]) as never)),
    )
    .orderBy(column, direction)
    .orderBy("id" as never, direction)
    .limit(limit) as Query;
}

/** The parameters `keysetPage` adds, in its order: the position's two values when there is one, then the limit. */
export function keysetPageParameters(after: Keyset | undefined, limit: number): readonly number[] {
  return after === undefined ? [limit] : [after[0], after[1], limit];
}
