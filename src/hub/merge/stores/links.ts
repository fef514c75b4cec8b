import { MessageType, type MessageData } from "../../../protocol/generated/message.js";
import { fidKey, linkTypeKey, setKey, StoreType } from "../../data/keys.js";
import { checkAgainstCompactState, mergeCompactState } from "./linkCompactState.js";
import { lastWriteWins, type StoreSpec } from "./spec.js";
import { type IndexColumns } from "./rows.js";

export function linkSetKey(type: string, targetFid: number): Uint8Array {
  return setKey(linkTypeKey(type), fidKey(targetFid));
}

/**
 * A fid has at most one link of each type to each target fid, and its compact state of a link type
 * overrules the links at or before it.
 */
export const links: StoreSpec = {
  store: StoreType.LINKS,
  addType: MessageType.LINK_ADD,
  removeType: MessageType.LINK_REMOVE,
  setKey: (data: MessageData) => linkSetKey(data.linkBody!.type, data.linkBody!.targetFid ?? 0),
  ranksAbove: lastWriteWins,
  index(data: MessageData): IndexColumns {
    const body = data.linkBody!;
    const target = body.targetFid ?? 0;
    return { kind: body.type, target: fidKey(target), targetFid: target, mentions: [] };
  },
  check: checkAgainstCompactState,
  extraTypes: [{ type: MessageType.LINK_COMPACT_STATE, merge: mergeCompactState }],
};
