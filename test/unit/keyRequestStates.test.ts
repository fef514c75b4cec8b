/** The signed key request's moves (src/clientapi/keyRequests/states.ts). */
import assert from "node:assert/strict";
import { it } from "node:test";
import { KEY_REQUEST_STATE_NAMES, mayMove } from "../../src/clientapi/keyRequests/states.js";

it("allows exactly the moves of the approval flow", () => {
  const allowed = KEY_REQUEST_STATE_NAMES.flatMap((from) =>
    KEY_REQUEST_STATE_NAMES.filter((to) => mayMove(from, to)).map((to) => `${from}→${to}`),
  );
  assert.deepEqual(allowed, [
    "pending→submitting",
    "submitting→pending",
    "submitting→approved",
    "submitting→completed",
    "approved→completed",
  ]);
});
