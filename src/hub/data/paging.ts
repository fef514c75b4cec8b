/** One page of a list: what a request asks for and what it gets, keyed by the last item's bytes. */

/** Default and largest page, as in the reference. */
const DEFAULT_PAGE_SIZE = 1000;
const MAX_PAGE_SIZE = 1000;

/** The page size a request gets: the default for none or 0, at most the largest. */
export function pageSizeOf(requested: number | undefined): number {
  return requested === undefined || requested === 0 ? DEFAULT_PAGE_SIZE : Math.min(requested, MAX_PAGE_SIZE);
}

export interface KeyPageRequest {
  pageSize: number;
  reverse: boolean;
  /** Key of the last item of the previous page. */
  after: Uint8Array | undefined;
}

export interface KeyPage<Item> {
  items: Item[];
  /** Key of the last item when more follow. */
  next: Uint8Array | undefined;
}

/** The first `pageSize` rows, and the key to resume after them when more follow. */
export function cut<Row>(rows: Row[], pageSize: number, key: (row: Row) => Uint8Array): KeyPage<Row> {
  if (rows.length <= pageSize) return { items: rows, next: undefined };
  const items = rows.slice(0, pageSize);
  return { items, next: key(items[items.length - 1]!) };
}

/** A page key as the page token the hub gives out: standard base64, "" when no page follows. */
export function pageToken(key: Uint8Array | undefined): string {
  return key === undefined ? "" : Buffer.from(key).toString("base64");
}

/** A chain event's place in chain order, as a page key: block number and log index, big-endian. */
export function chainOrderKey(event: { blockNumber: number; logIndex: number }): Uint8Array {
  const key = new Uint8Array(8);
  const view = new DataView(key.buffer);
  view.setUint32(0, event.blockNumber);
  view.setUint32(4, event.logIndex);
  return key;
}

/**
 * A page of a short list held in memory, in key order (or reverse), after the request's key. Like the
 * reference's on-chain lists, the last page carries no next key.
 */
export function pageInMemory<Item>(
  items: readonly Item[],
  page: KeyPageRequest,
  key: (item: Item) => Uint8Array,
): KeyPage<Item> {
  const ordered = page.reverse ? [...items].reverse() : items;
  const after = page.after && Buffer.from(page.after);
  const sign = page.reverse ? -1 : 1;
  const rest = after
    ? ordered.filter((item) => Buffer.compare(Buffer.from(key(item)), after) * sign > 0)
    : ordered;
  const shown = rest.slice(0, page.pageSize);
  const last = shown.at(-1);
  return { items: shown, next: rest.length > shown.length && last !== undefined ? key(last) : undefined };
}
