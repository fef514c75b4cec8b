import { MessageType, type MessageData } from "../../../protocol/generated/message.js";
import { castIdKey, StoreType, urlKey } from "../../data/keys.js";
import { removeWins, type StoreSpec } from "./spec.js";
import { NO_INDEX, type IndexColumns } from "./rows.js";

/** Casts compete by the cast's hash: an add under its own hash, a remove under its target's. */
export const casts: StoreSpec = {
  store: StoreType.CASTS,
  addType: MessageType.CAST_ADD,
  removeType: MessageType.CAST_REMOVE,
  setKey(data: MessageData, hash: Uint8Array) {
    return data.castRemoveBody !== undefined ? data.castRemoveBody.targetHash : hash;
  },
  ranksAbove: removeWins,
  index(data: MessageData): IndexColumns {
    const body = data.castAddBody;
    if (body === undefined) return NO_INDEX;
    const parent = body.parentCastId;
    return {
      kind: null,
      target:
        parent !== undefined
          ? castIdKey(parent)
          : body.parentUrl === undefined
            ? null
            : urlKey(body.parentUrl),
      targetFid: parent?.fid ?? null,
      mentions: body.mentions,
    };
  },
};
