/**
 * What makes one store differ from another: which message types it holds, the set key two
 * messages compete for, which of two competitors wins, and the index columns of an add. The merge
 * itself (crdt.ts) is the same for all of them.
 */
import type { MessageData, MessageType } from "../../protocol/generated/message.js";
import { compareBytes, type StoreType } from "../keys.js";

export interface Competitor {
  timestamp: number;
  tsHash: Uint8Array;
  isRemove: boolean;
}

export interface IndexColumns {
  kind: string | null;
  target: Uint8Array | null;
  targetFid: number | null;
  mentions: readonly number[];
}

export const NO_INDEX: IndexColumns = { kind: null, target: null, targetFid: null, mentions: [] };

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
}

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
