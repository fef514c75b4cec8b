import { MessageType, type MessageData, type ReactionBody } from "../../../protocol/generated/message.js";
import { castIdKey, setKey, StoreType, u8, urlKey } from "../../data/keys.js";
import { lastWriteWins, type StoreSpec } from "./spec.js";
import { type IndexColumns } from "./rows.js";

function reactionTargetKey(body: ReactionBody): Uint8Array {
  return body.targetCastId !== undefined ? castIdKey(body.targetCastId) : urlKey(body.targetUrl ?? "");
}

export function reactionSetKey(body: ReactionBody): Uint8Array {
  return setKey(u8(body.type), reactionTargetKey(body));
}

/** A fid has at most one reaction of each type per target. */
export const reactions: StoreSpec = {
  store: StoreType.REACTIONS,
  addType: MessageType.REACTION_ADD,
  removeType: MessageType.REACTION_REMOVE,
  setKey: (data: MessageData) => reactionSetKey(data.reactionBody!),
  ranksAbove: lastWriteWins,
  index(data: MessageData): IndexColumns {
    const body = data.reactionBody!;
    return {
      kind: String(body.type),
      target: reactionTargetKey(body),
      targetFid: body.targetCastId?.fid ?? null,
      mentions: [],
    };
  },
};
