import type { Cursors, Position } from "./cursor.js";

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** A keyset position: the time column of the last row seen and its id. */
export interface After {
  at: number;
  id: number;
}

/** One page and, only while more remains, the cursor of the next. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/**
 * Reads one keyset page. The cursor carries the page size too (as the reference's cursors do), so a
 * client that sends only `cursor` keeps the size it asked for; an explicit `limit` wins.
 */
export async function readPage<Row, T>(
  cursors: Cursors,
  scope: string,
  query: PageQuery,
  fields: readonly string[],
  fetch: (after: Position | undefined, limit: number) => Promise<Row[]>,
  positionOf: (row: Row) => Position,
  render: (row: Row) => T,
): Promise<Page<T>> {
  const after =
    query.cursor === undefined ? undefined : cursors.decode(scope, query.cursor, [...fields, "l"]);
  const limit = query.limit ?? after?.l ?? DEFAULT_PAGE_SIZE;
  const rows = await fetch(after, limit + 1);
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const page: Page<T> = { items: pageRows.map(render) };
  const last = pageRows[pageRows.length - 1];
  if (more && last !== undefined) page.next = cursors.encode(scope, { ...positionOf(last), l: limit });
  return page;
}
