/** One page of a list: what a request asks for and what it gets, keyed by the last item's bytes. */

export interface PageRequest {
  pageSize: number;
  reverse: boolean;
  /** Key of the last item of the previous page. */
  after: Uint8Array | undefined;
}

export interface Page<Item> {
  items: Item[];
  /** Key of the last item when more follow. */
  next: Uint8Array | undefined;
}

/** The first `pageSize` rows, and the key to resume after them when more follow. */
export function cut<Row>(rows: Row[], pageSize: number, key: (row: Row) => Uint8Array): Page<Row> {
  if (rows.length <= pageSize) return { items: rows, next: undefined };
  const items = rows.slice(0, pageSize);
  return { items, next: key(items[items.length - 1]!) };
}

/** A page key as the page token the hub gives out: standard base64, "" when no page follows. */
export function pageToken(key: Uint8Array | undefined): string {
  return key === undefined ? "" : Buffer.from(key).toString("base64");
}
