import { HubEventType } from "../../../protocol/generated/hub_event.js";
import { MessageType, type MessageData } from "../../../protocol/generated/message.js";
import type { UserNameProof } from "../../../protocol/generated/username_proof.js";
import { HubError } from "../../../protocol/errors.js";
import { bytesEqual } from "../../../protocol/hash.js";
import { decodeMessage } from "../../../protocol/message.js";
import { utf8Name } from "../../../protocol/validation/names.js";
import { compareBytes, nameKey, StoreType } from "../../data/keys.js";
import type { Competitor, StoreEvents, StoreSpec } from "./spec.js";
import type { IndexColumns, MergeRow } from "./rows.js";

function newerHash(a: Competitor, b: Competitor): boolean {
  return compareBytes(a.tsHash, b.tsHash) > 0;
}

/**
 * A name-service name moves to another fid only with its owner: castnet cannot resolve the name to
 * learn who owns it now, so a proof signed by another key must not evict the holder's.
 */
function mustHaveSameOwner(holder: MergeRow, data: MessageData): void {
  const incoming: UserNameProof = data.usernameProofBody!;
  const held = decodeMessage(holder.message).message.data?.usernameProofBody;
  if (held !== undefined && bytesEqual(held.owner, incoming.owner)) return;
  throw new HubError(
    "bad_request.conflict",
    `name ${utf8Name(incoming.name)} is held by fid ${holder.fid}; castnet cannot resolve name-service names, so a proof by another owner cannot take it over`,
  );
}

/** Proofs report merges and deletions alike through their own event type. */
const PROOF_EVENTS: StoreEvents = {
  merged: (incoming, deleted) => ({
    type: HubEventType.MERGE_USERNAME_PROOF,
    mergeUsernameProofBody: {
      usernameProof: incoming.message.data.usernameProofBody,
      deletedUsernameProof: deleted[0]?.data?.usernameProofBody,
      usernameProofMessage: incoming.message,
      deletedUsernameProofMessage: deleted[0],
    },
  }),
  deleted: (message) => ({
    type: HubEventType.MERGE_USERNAME_PROOF,
    mergeUsernameProofBody: {
      usernameProof: undefined,
      deletedUsernameProof: message.data?.usernameProofBody,
      usernameProofMessage: undefined,
      deletedUsernameProofMessage: message,
    },
  }),
};

/**
 * Name-service proofs submitted as messages. A name belongs to one fid at a time, across fids: the
 * newest proof of the same owner wins and deletes the older one.
 */
export const usernameProofs: StoreSpec = {
  store: StoreType.USERNAME_PROOFS,
  addType: MessageType.USERNAME_PROOF,
  removeType: undefined,
  setKey(data: MessageData) {
    return data.usernameProofBody!.name;
  },
  ranksAbove: newerHash,
  index(data: MessageData): IndexColumns {
    return { kind: null, target: nameKey(data.usernameProofBody!.name), targetFid: null, mentions: [] };
  },
  crossFid: {
    target(data: MessageData) {
      const proof = data.usernameProofBody;
      return proof === undefined ? undefined : nameKey(proof.name);
    },
    ranksAbove: newerHash,
    mayDisplace: mustHaveSameOwner,
  },
  events: PROOF_EVENTS,
};
