/**
 * What makes one store differ from another: which message types it holds, the set key two
 * messages compete for, which of two competitors wins, the index columns of an add, and the
 * optional rules a few stores add on top. The merge itself (crdt.ts) is the same for all of them
 * and only calls these hooks.
 */
import type { HubError } from "../../../protocol/errors.js";
import { HubEventType } from "../../../protocol/generated/hub_event.js";
import type {
  Message,
  MessageData,
  MessageType,
  SocialNetwork,
} from "../../../protocol/generated/message.js";
import type { MergeContext, PendingEvent } from "../context.js";
import type { StorageUnits } from "../limits.js";
import { compareBytes, type StoreType } from "../../data/keys.js";
import type { IndexColumns, Incoming, MergeRow } from "./rows.js";

export interface Competitor {
  timestamp: number;
  tsHash: Uint8Array;
  isRemove: boolean;
}

export type Merge = (ctx: MergeContext, incoming: Incoming) => Promise<void>;

/** A set member that one fid at a time may hold, so that a message also competes with other fids'. */
export interface CrossFidRule {
  /**
   * The index target the message competes for across fids, undefined when it competes with none.
   * The engine locks it before the merge, so it must not throw on a message that failed validation.
   */
  target(data: MessageData): Uint8Array | undefined;
  /** True when `a` ranks above `b` held by another fid. */
  ranksAbove(a: Competitor, b: Competitor): boolean;
  /** Throws when the other fid's `holder` may not be displaced at all, whoever ranks higher. */
  mayDisplace?(holder: MergeRow, data: MessageData): void;
}

/** The hub events a store's merges and deletions produce. */
export interface StoreEvents {
  merged(incoming: Incoming, deleted: Message[]): PendingEvent;
  deleted(message: Message, why: "prune" | "revoke"): PendingEvent;
}

export interface StoreSpec {
  readonly store: StoreType;
  readonly addType: MessageType;
  readonly removeType: MessageType | undefined;
  /** `hash` is the message's own hash (a cast add competes under it). */
  setKey(data: MessageData, hash: Uint8Array): Uint8Array;
  /** True when `a` ranks above `b` for the same set key. */
  ranksAbove(a: Competitor, b: Competitor): boolean;
  /** Columns the by-target and filtered lists seek on; only adds are listed, so removes get none. */
  index(data: MessageData): IndexColumns;
  readonly crossFid?: CrossFidRule;
  /** Throws when the store's other contents refuse the message; runs before anything is written. */
  check?: Merge;
  /**
   * Types the store keeps beside its set, each merged by its own rule: they are not counted against
   * the store's limit (as the reference hub keeps compact states), nor ever pruned.
   */
  readonly extraTypes?: readonly { type: MessageType; merge: Merge }[];
  /** MESSAGE_EVENTS unless the store reports through an event type of its own. */
  readonly events?: StoreEvents;
  /**
   * Its messages stand until a newer one of their set key replaces them: the store's limit is
   * reported, never enforced, and they outlive the key that signed them (storage loans).
   */
  readonly standing?: true;
  /**
   * A refusal by the sender's storage, beyond having some (a loan of units the lender cannot spare);
   * it runs with the storage check, before the merge, and for validation too.
   */
  storageCheck?(storage: StorageUnits, data: MessageData, network: SocialNetwork): HubError | undefined;
  /**
   * The fids whose storage the message moves (a loan's lender and borrower). The merge locks them,
   * and once the message is in, forgets what it knew of their storage and prunes their stores to
   * their new limits. Must not throw on a message that failed validation.
   */
  movesStorage?(data: MessageData): readonly number[];
  /** True for a message that only takes something back (a loan of no units): deleted as pruned once merged. */
  prunedOnMerge?(data: MessageData): boolean;
}

export const MESSAGE_EVENTS: StoreEvents = {
  merged: (incoming, deleted) => ({
    type: HubEventType.MERGE_MESSAGE,
    mergeMessageBody: { message: incoming.message, deletedMessages: deleted },
  }),
  deleted: (message, why) =>
    why === "prune"
      ? { type: HubEventType.PRUNE_MESSAGE, pruneMessageBody: { message } }
      : { type: HubEventType.REVOKE_MESSAGE, revokeMessageBody: { message } },
};

/** Later timestamp wins; on a tie a remove beats an add; then the larger hash. */
export function lastWriteWins(a: Competitor, b: Competitor): boolean {
  if (a.timestamp !== b.timestamp) return a.timestamp > b.timestamp;
  if (a.isRemove !== b.isRemove) return a.isRemove;
  return compareBytes(a.tsHash, b.tsHash) > 0;
}

/** Cast removes are tombstones: a remove beats any add whatever its timestamp. */
export function removeWins(a: Competitor, b: Competitor): boolean {
  if (a.isRemove !== b.isRemove) return a.isRemove;
  return compareBytes(a.tsHash, b.tsHash) > 0;
}
