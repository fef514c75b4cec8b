import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Cursors } from "../../src/clientapi/cursor.js";

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
