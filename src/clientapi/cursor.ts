import { blake3Keyed } from "../protocol/hash.js";
import { badInput } from "./errors.js";

/**
 * Page cursors: a few integers (a keyset position and the page size), each in base 36 and joined by
 * `_`, then a dot and a truncated MAC (BLAKE3's keyed mode, base64url) over the list the cursor
 * belongs to and those integers. Keyset (not offset) positions keep paging exact while rows are
 * inserted; the MAC makes a tampered cursor, or one taken from another list, a 400. A cursor is
 * checked and the next one made on every page, so both are kept cheap: no JSON, no base64 payload,
 * and the MAC compared as text.
 */
const MAC_BYTES = 12;
/** base64url of MAC_BYTES, unpadded. */
const MAC_CHARS = 16;

const invalid = () => badInput('query parameter "cursor" is not a cursor this list returned');

/** Whether two texts are equal, in a time that depends on their lengths only. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export class Cursors {
  /** 32 bytes. */
  constructor(private readonly key: Uint8Array) {}

  /** `scope` names the list and its filters, e.g. `followers:music`; `values` are safe integers. */
  encode(scope: string, values: readonly number[]): string {
    const payload = values.map((value) => value.toString(36)).join("_");
    return `${payload}.${this.mac(scope, payload)}`;
  }

  /** The `count` values of a cursor `encode` made for `scope`. */
  decode(scope: string, cursor: string, count: number): number[] {
    const dot = cursor.length - MAC_CHARS - 1;
    if (dot < 0 || cursor[dot] !== ".") throw invalid();
    const payload = cursor.slice(0, dot);
    if (!sameText(cursor.slice(dot + 1), this.mac(scope, payload))) throw invalid();
    const values = payload.split("_").map((text) => parseInt(text, 36));
    if (values.length !== count || !values.every(Number.isSafeInteger)) throw invalid();
    return values;
  }

  private mac(scope: string, payload: string): string {
    const mac = blake3Keyed(this.key, Buffer.from(`${scope}\n${payload}`), MAC_BYTES);
    return Buffer.from(mac.buffer, mac.byteOffset, MAC_BYTES).toString("base64url");
  }
}
