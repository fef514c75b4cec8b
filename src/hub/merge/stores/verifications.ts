import { MessageType, type MessageData } from "../../../protocol/generated/message.js";
import { addressKey, StoreType } from "../../data/keys.js";
import { lastWriteWins, type StoreSpec } from "./spec.js";
import { type IndexColumns } from "./rows.js";

function address(data: MessageData): Uint8Array {
  return (data.verificationAddAddressBody ?? data.verificationRemoveBody)!.address;
}

/**
 * One verification per address per fid. As in the reference hub, an address is also verified by
 * one fid at a time: a newer add displaces another fid's.
 */
export const verifications: StoreSpec = {
  store: StoreType.VERIFICATIONS,
  addType: MessageType.VERIFICATION_ADD_ETH_ADDRESS,
  removeType: MessageType.VERIFICATION_REMOVE,
  setKey(data: MessageData) {
    return address(data);
  },
  ranksAbove: lastWriteWins,
  index(data: MessageData): IndexColumns {
    return { kind: null, target: addressKey(address(data)), targetFid: null, mentions: [] };
  },
  crossFid: {
    target(data: MessageData) {
      const add = data.verificationAddAddressBody;
      return add === undefined ? undefined : addressKey(add.address);
    },
    ranksAbove: lastWriteWins,
  },
};
