import { MessageType, type MessageData } from "../../../protocol/generated/message.js";
import { StoreType, u8 } from "../../data/keys.js";
import { lastWriteWins, type StoreSpec } from "./spec.js";
import { type IndexColumns } from "./rows.js";

/** One value per user-data type; there are no removes (an empty value clears). */
export const userData: StoreSpec = {
  store: StoreType.USER_DATA,
  addType: MessageType.USER_DATA_ADD,
  removeType: undefined,
  setKey(data: MessageData) {
    return u8(data.userDataBody!.type);
  },
  ranksAbove: lastWriteWins,
  index(data: MessageData): IndexColumns {
    return { kind: String(data.userDataBody!.type), target: null, targetFid: null, mentions: [] };
  },
};
