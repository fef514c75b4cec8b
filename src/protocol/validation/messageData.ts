import type { HubError } from "../errors.js";
import { MessageType, type MessageData } from "../generated/message.js";
import { currentProtocolTime } from "../time.js";
import { validateCastAddBody, validateCastRemoveBody } from "./cast.js";
import { validateFid } from "./common.js";
import { invalid, invalidParam } from "./errors.js";
import { validateFrameActionBody } from "./frameAction.js";
import { validateLinkBody, validateLinkCompactStateBody, validateReactionBody } from "./reactionLink.js";
import { validateUserDataBody } from "./userData.js";
import { validateUsernameProofBody } from "./usernameProof.js";
import { validateVerificationRemoveBody } from "./verification.js";

const MAX_FUTURE_SECONDS = 600;

/**
 * The message types the reference hub knew. Newer ones (storage lending, gasless keys, channels)
 * are refused as it refused them: they need state and rules this hub does not implement.
 */
const KNOWN_TYPES = new Set<number>([0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14]);

function countBodies(data: MessageData): number {
  let n = 0;
  if (data.castAddBody !== undefined) n++;
  if (data.castRemoveBody !== undefined) n++;
  if (data.reactionBody !== undefined) n++;
  if (data.verificationAddAddressBody !== undefined) n++;
  if (data.verificationRemoveBody !== undefined) n++;
  if (data.userDataBody !== undefined) n++;
  if (data.linkBody !== undefined) n++;
  if (data.usernameProofBody !== undefined) n++;
  if (data.frameActionBody !== undefined) n++;
  if (data.linkCompactStateBody !== undefined) n++;
  if (data.lendStorageBody !== undefined) n++;
  if (data.keyAddBody !== undefined) n++;
  if (data.keyRemoveBody !== undefined) n++;
  return n;
}

function hasBodyFor(data: MessageData): boolean {
  switch (data.type) {
    case MessageType.CAST_ADD:
      return data.castAddBody !== undefined;
    case MessageType.CAST_REMOVE:
      return data.castRemoveBody !== undefined;
    case MessageType.REACTION_ADD:
    case MessageType.REACTION_REMOVE:
      return data.reactionBody !== undefined;
    case MessageType.LINK_ADD:
    case MessageType.LINK_REMOVE:
      return data.linkBody !== undefined;
    case MessageType.LINK_COMPACT_STATE:
      return data.linkCompactStateBody !== undefined;
    case MessageType.VERIFICATION_ADD_ETH_ADDRESS:
      return data.verificationAddAddressBody !== undefined;
    case MessageType.VERIFICATION_REMOVE:
      return data.verificationRemoveBody !== undefined;
    case MessageType.USER_DATA_ADD:
      return data.userDataBody !== undefined;
    case MessageType.USERNAME_PROOF:
      return data.usernameProofBody !== undefined;
    case MessageType.FRAME_ACTION:
      return data.frameActionBody !== undefined;
    default:
      return false;
  }
}

/**
 * Common MessageData rules then the body rules, in the reference's order. Verification-add bodies
 * are left to the caller: their Ethereum claim check is asynchronous.
 */
export function validateMessageData(data: MessageData, nowMs: number): HubError | undefined {
  const fidError = validateFid(data.fid);
  if (fidError !== undefined) return fidError;
  if (data.timestamp - currentProtocolTime(nowMs) > MAX_FUTURE_SECONDS) {
    return invalid("timestamp more than 10 mins in the future");
  }
  if (!(data.network >= 0 && data.network <= 3)) return invalid("invalid network");
  if (!KNOWN_TYPES.has(data.type)) return invalid("invalid message type");
  if (countBodies(data) !== 1) return invalid("only one body can be set");
  if (!hasBodyFor(data)) return invalidParam("bodyType is invalid");

  switch (data.type) {
    case MessageType.CAST_ADD:
      return validateCastAddBody(data.castAddBody!, data.timestamp);
    case MessageType.CAST_REMOVE:
      return validateCastRemoveBody(data.castRemoveBody!);
    case MessageType.REACTION_ADD:
    case MessageType.REACTION_REMOVE:
      return validateReactionBody(data.reactionBody!);
    case MessageType.LINK_ADD:
    case MessageType.LINK_REMOVE:
      return validateLinkBody(data.linkBody!);
    case MessageType.LINK_COMPACT_STATE:
      return validateLinkCompactStateBody(data.linkCompactStateBody!);
    case MessageType.VERIFICATION_REMOVE:
      return validateVerificationRemoveBody(data.verificationRemoveBody!);
    case MessageType.USER_DATA_ADD:
      return validateUserDataBody(data.userDataBody!);
    case MessageType.USERNAME_PROOF:
      return validateUsernameProofBody(data.usernameProofBody!, data.fid, data.timestamp);
    case MessageType.FRAME_ACTION:
      return validateFrameActionBody(data.frameActionBody!);
    default:
      return undefined;
  }
}
