import { MessageType, type MessageData } from "../../protocol/generated/message.js";
import { compareBytes, nameKey, StoreType } from "../keys.js";
import type { Competitor, IndexColumns, StoreSpec } from "./spec.js";

/**
 * Name-service proofs submitted as messages. A name belongs to one fid at a time, across fids: the
 * newest proof wins and deletes the older one (crdt.ts).
 */
export const usernameProofs: StoreSpec = {
  store: StoreType.USERNAME_PROOFS,
  addType: MessageType.USERNAME_PROOF,
  removeType: undefined,
  setKey(data: MessageData) {
    return data.usernameProofBody!.name;
  },
  ranksAbove(a: Competitor, b: Competitor) {
    return compareBytes(a.tsHash, b.tsHash) > 0;
  },
  index(data: MessageData): IndexColumns {
    return { kind: null, target: nameKey(data.usernameProofBody!.name), targetFid: null, mentions: [] };
  },
};
