import { timingSafeEqual } from "node:crypto";
import { blake3Keyed } from "../protocol/hash.js";
import { badInput } from "./errors.js";

/**
 * Page cursors: base64url of a small JSON keyset position, then a dot and a truncated MAC (BLAKE3's
 * keyed mode) over the list it belongs to and the position. Keyset (not offset) positions keep
 * paging exact while rows are inserted; the MAC makes a tampered cursor, or one taken from another
 * list, a 400. A cursor's MAC is checked and the next one made on every page: BLAKE3 over these
 * few dozen bytes costs under a µs, node:crypto's HMAC-SHA256 about four.
 */
export type Position = Record<string, number>;

const MAC_BYTES = 12;
/** base64url of MAC_BYTES, unpadded: a MAC of any other length is refused before it is decoded. */
const MAC_CHARS = 16;

const invalid = () => badInput('query parameter "cursor" is not a cursor this list returned');

export class Cursors {
  /** 32 bytes. */
  constructor(private readonly key: Uint8Array) {}

  /** `scope` names the list and its filters, e.g. `followers:music`. */
  encode(scope: string, position: Position): string {
    const payload = Buffer.from(JSON.stringify(position)).toString("base64url");
    return `${payload}.${Buffer.from(this.mac(scope, payload)).toString("base64url")}`;
  }

  decode(scope: string, cursor: string, fields: readonly string[]): Position {
    const [payload, mac, extra] = cursor.split(".");
    // A decoder drops a trailing partial character, so `<mac>x` would pass for `<mac>` unless the
    // length is checked first.
    if (payload === undefined || mac?.length !== MAC_CHARS || extra !== undefined) throw invalid();
    const given = Buffer.from(mac, "base64url");
    if (given.length !== MAC_BYTES || !timingSafeEqual(given, this.mac(scope, payload))) throw invalid();
    let position: unknown;
    try {
      position = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    } catch {
      throw invalid();
    }
    if (typeof position !== "object" || position === null) throw invalid();
    const record = position as Record<string, unknown>;
    for (const field of fields) {
      if (!Number.isSafeInteger(record[field])) throw invalid();
    }
    return record as Position;
  }

  private mac(scope: string, payload: string): Uint8Array {
    return blake3Keyed(this.key, Buffer.from(`${scope}\n${payload}`), MAC_BYTES);
  }
}
