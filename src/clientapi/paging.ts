import type { Cursors } from "./cursor.js";

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** A keyset position: a row's value in the column its list is ordered by, and its id. */
export type Keyset = readonly [key: number, id: number];

/** One page and, only while more remains, the cursor of the next. */
export interface CursorPage<T> {
  items: T[];
  next?: string;
}

/** What a page asks for: the position it starts after (none for the first page) and its size. */
export interface CursorPageRequest {
  after: Keyset | undefined;
  limit: number;
}

/**
 * The page a query asks for, its cursor checked against `scope` (the list). The cursor carries the
 * page size too (as the reference's cursors do), so a client that sends only `cursor` keeps the
 * size it asked for; an explicit `limit` wins.
 */
export function pageRequest(cursors: Cursors, scope: string, query: PageQuery): CursorPageRequest {
  if (query.cursor === undefined) return { after: undefined, limit: query.limit ?? DEFAULT_PAGE_SIZE };
  const [key, id, limit] = cursors.decode(scope, query.cursor, 3) as [number, number, number];
  return { after: [key, id], limit: query.limit ?? limit };
}

/** The cursor of the page after one of `limit` rows whose last row is at `last`. */
export function nextCursor(cursors: Cursors, scope: string, last: Keyset, limit: number): string {
  return cursors.encode(scope, [...last, limit]);
}

/**
 * Reads one keyset page of rows: `fetch` is asked for one row more than the page holds, which tells
 * whether a next page exists.
 */
export async function readPage<Row, T>(
  cursors: Cursors,
  scope: string,
  query: PageQuery,
  fetch: (after: Keyset | undefined, limit: number) => Promise<Row[]>,
  keysetOf: (row: Row) => Keyset,
  render: (row: Row) => T,
): Promise<CursorPage<T>> {
  const { after, limit } = pageRequest(cursors, scope, query);
  const rows = await fetch(after, limit + 1);
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const page: CursorPage<T> = { items: pageRows.map(render) };
  const last = pageRows[pageRows.length - 1];
  if (more && last !== undefined) page.next = nextCursor(cursors, scope, keysetOf(last), limit);
  return page;
}
