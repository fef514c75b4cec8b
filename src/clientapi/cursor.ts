import { blake3Keyed } from "../protocol/hash.js";
import { badInput } from "./errors.js";

/**
 * Page cursors: a few integers (a keyset position and the page size) in decimal, joined by `_`, then
 * a dot and a truncated MAC (BLAKE3's keyed mode, in base64url) over the list the cursor belongs
 * to and those integers. Keyset (not offset) positions keep paging exact while rows are inserted;
 * the MAC makes a tampered cursor, or one taken from another list, a 400.
 *
 * A cursor is checked and the next one made on every page, so both stay within JavaScript: Node's
 * Buffer conversions, each a call into C++, cost more than the hash itself at these few dozen
 * bytes.
 */
const MAC_BYTES = 12;
/** base64url of MAC_BYTES: 4 characters for every 3 bytes, no padding. */
const MAC_CHARS = 16;
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

const invalid = () => badInput('query parameter "cursor" is not a cursor this list returned');

/** base64url of bytes whose length is a multiple of 3. */
export function base64url(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    text += BASE64URL[n >> 18]! + BASE64URL[(n >> 12) & 63]! + BASE64URL[(n >> 6) & 63]! + BASE64URL[n & 63]!;
  }
  return text;
}

/** Whether two texts are equal, in a time that depends on their lengths only. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** Room for the MAC's input of any list's cursor: a scope with a channel id of 64 ASCII characters and a cursor of 256. */
const ASCII_ROOM = 512;

export class Cursors {
  readonly #input = new Uint8Array(ASCII_ROOM);

  /** 32 bytes. */
  constructor(private readonly key: Uint8Array) {}

  /** `scope` names the list and its filters, e.g. `followers:music`; `values` are safe integers. */
  encode(scope: string, values: readonly number[]): string {
    const payload = values.join("_");
    return `${payload}.${this.mac(scope, payload)}`;
  }

  /** The `count` values of a cursor `encode` made for `scope`. */
  decode(scope: string, cursor: string, count: number): number[] {
    const dot = cursor.length - MAC_CHARS - 1;
    if (dot < 0 || cursor[dot] !== ".") throw invalid();
    const payload = cursor.slice(0, dot);
    if (!sameText(cursor.slice(dot + 1), this.mac(scope, payload))) throw invalid();
    // Only a payload this class wrote has the right MAC, so it holds `count` integers.
    const values = payload.split("_").map(Number);
    if (values.length !== count || !values.every(Number.isSafeInteger)) throw invalid();
    return values;
  }

  /** The MAC of `scope`, a newline and `payload`, their UTF-8 written into a buffer kept for it when they are ASCII. */
  private mac(scope: string, payload: string): string {
    const text = `${scope}\n${payload}`;
    let bytes: Uint8Array = this.#input;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f || i === ASCII_ROOM) {
        bytes = Buffer.from(text);
        break;
      }
      bytes[i] = code;
    }
    const length = bytes === this.#input ? text.length : bytes.length;
    return base64url(blake3Keyed(this.key, bytes.subarray(0, length), MAC_BYTES));
  }
}
