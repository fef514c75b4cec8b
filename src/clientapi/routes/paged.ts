import type { Page } from "../paging.js";

/** A page in the envelope: `next` only while more remains. */
export function paged<T, R extends object>(page: Page<T>, result: (items: T[]) => R) {
  return page.next === undefined
    ? { result: result(page.items) }
    : { result: result(page.items), next: { cursor: page.next } };
}
