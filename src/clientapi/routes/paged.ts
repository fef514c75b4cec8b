import type { CursorPage } from "../paging.js";

/** A page in the envelope: `next` only while more remains. */
export function paged<T, R extends object>(page: CursorPage<T>, result: (items: T[]) => R) {
  return page.next === undefined
    ? { result: result(page.items) }
    : { result: result(page.items), next: { cursor: page.next } };
}

/**
 * The same envelope as JSON text, around a result rendered as text already: the bytes the envelope's
 * schema (schemas.ts) writes, `result` first.
 */
export function pagedJson(next: string | undefined, resultJson: string): string {
  return next === undefined
    ? `{"result":${resultJson}}`
    : `{"result":${resultJson},"next":{"cursor":${JSON.stringify(next)}}}`;
}
