/**
 * A signed key request's states and the moves between them: the one table the store's updates
 * (store.ts, `moveKeyRequest`), the rendered JSON (`shownAs`), the metrics (one gauge label per
 * state) and docs/clientapi.md ("Signed key request states", checked by test/docs) follow.
 */
export const KEY_REQUEST_STATES = {
  pending: {
    shownAs: "pending",
    next: ["submitting"],
    meaning: "made by the app, waiting for the user's approval",
  },
  submitting: {
    shownAs: "pending",
    next: ["approved", "completed", "pending"],
    meaning:
      "approved by the user; its key add on its way to the chain (or cut off on the way by a crash, resolved against the chain later); back to pending if the chain refuses it",
  },
  approved: {
    shownAs: "approved",
    next: ["completed"],
    meaning: "the chain took the key add; waiting for its block",
  },
  completed: {
    shownAs: "completed",
    next: [],
    meaning: "the key add is mined: the key signs for the user",
  },
} as const satisfies Record<string, { shownAs: string; next: readonly string[]; meaning: string }>;

export type KeyRequestState = keyof typeof KEY_REQUEST_STATES;
/** What the API answers: a request being submitted still reads "pending". */
export type ShownKeyRequestState = (typeof KEY_REQUEST_STATES)[KeyRequestState]["shownAs"];

export const KEY_REQUEST_STATE_NAMES = Object.keys(KEY_REQUEST_STATES) as KeyRequestState[];

/** Whether the table allows moving from `from` to `to`. */
export function mayMove(from: KeyRequestState, to: KeyRequestState): boolean {
  return (KEY_REQUEST_STATES[from].next as readonly KeyRequestState[]).includes(to);
}
