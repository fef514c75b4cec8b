import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { base64url, Cursors } from "../../src/clientapi/cursor.js";

const cursors = new Cursors(new Uint8Array(32).fill(7));
const refused = { message: 'query parameter "cursor" is not a cursor this list returned' };

describe("page cursors", () => {
  it("give back the integers they were made of, for the list they were made for", () => {
    for (const values of [
      [1763990000, 12345, 50],
      [0, -42, 1],
      [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER],
    ]) {
      const cursor = cursors.encode("followers:music", values);
      assert.match(cursor, /^[0-9a-z_-]+\.[A-Za-z0-9_-]{16}$/);
      assert.deepEqual(cursors.decode("followers:music", cursor, values.length), values);
    }
  });

  it("hold for lists named in any characters, of any length", () => {
    for (const scope of ["followers:caf\u00e9 \ud83c\udf89", `followers:${"x".repeat(600)}`, "following:7"]) {
      const cursor = cursors.encode(scope, [5, 6, 7]);
      assert.deepEqual(cursors.decode(scope, cursor, 3), [5, 6, 7]);
      assert.throws(() => cursors.decode(`${scope}x`, cursor, 3), refused);
    }
    // The MAC of a short ASCII scope is not left over in what a longer or non-ASCII one hashes.
    const short = cursors.encode("a", [1]);
    cursors.encode(`followers:${"y".repeat(600)}`, [1]);
    assert.equal(cursors.encode("a", [1]), short);
  });

  it("write base64url as Node does", () => {
    for (const length of [0, 3, 12, 48]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 151 + 7) % 256);
      assert.equal(base64url(bytes), Buffer.from(bytes).toString("base64url"));
    }
  });

  it("refuse a cursor of another list, another key, another shape, or changed in any character", () => {
    const cursor = cursors.encode("followers:music", [1763990000, 12345, 50]);
    assert.throws(() => cursors.decode("followers:books", cursor, 3), refused);
    assert.throws(
      () => new Cursors(new Uint8Array(32).fill(8)).decode("followers:music", cursor, 3),
      refused,
    );
    assert.throws(() => cursors.decode("followers:music", cursor, 2), refused);
    for (let i = 0; i < cursor.length; i++) {
      const changed = cursor.slice(0, i) + (cursor[i] === "a" ? "b" : "a") + cursor.slice(i + 1);
      assert.throws(() => cursors.decode("followers:music", changed, 3), refused, `character ${i} changed`);
    }
    for (const broken of [
      `${cursor}a`,
      cursor.slice(1),
      cursor.slice(0, -1),
      cursor.replace(".", "_"),
      "",
      ".",
    ])
      assert.throws(() => cursors.decode("followers:music", broken, 3), refused, broken);
  });
});
