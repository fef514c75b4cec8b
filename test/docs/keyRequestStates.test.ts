/** docs/clientapi.md's table of signed key request states is the table the code follows (states.ts). */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { KEY_REQUEST_STATES } from "../../src/clientapi/keyRequests/states.js";

it("documents every signed key request state, what it is shown as and where it may move", () => {
  const page = readFileSync(join(import.meta.dirname, "../../docs/clientapi.md"), "utf8");
  const section = page.slice(page.indexOf("### Signed key request states"));
  const rows = [...section.matchAll(/^\| `([a-z]+)`\s*\| `([a-z]+)`\s*\|([^|]*)\|/gm)].map((m) => ({
    state: m[1]!,
    shownAs: m[2]!,
    next: [...m[3]!.matchAll(/`([a-z]+)`/g)].map((n) => n[1]!),
  }));
  assert.deepEqual(
    rows,
    Object.entries(KEY_REQUEST_STATES).map(([state, { shownAs, next }]) => ({
      state,
      shownAs,
      next: [...next],
    })),
  );
});
