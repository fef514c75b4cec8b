import type { HubEvent } from "../generated/hub_event.js";
import type { NamingProfile } from "../naming.js";
import { toHexJson } from "./bytes.js";
import { HUB_EVENT_TYPE_NAMES, enumName } from "./enums.js";
import { renderMessage, type MessageJson } from "./renderMessage.js";
import { renderOnChainEvent, type OnChainEventJson } from "./renderOnChainEvent.js";
import { renderUserNameProof, type UserNameProofJson } from "./renderUserNameProof.js";

export interface HubEventJson {
  type: string | number;
  id: number;
  mergeMessageBody?: { message?: MessageJson; deletedMessages: MessageJson[] };
  pruneMessageBody?: { message?: MessageJson };
  revokeMessageBody?: { message?: MessageJson };
  mergeUsernameProofBody?: {
    usernameProof?: UserNameProofJson;
    deletedUsernameProof?: UserNameProofJson;
    usernameProofMessage?: MessageJson;
    deletedUsernameProofMessage?: MessageJson;
  };
  mergeOnChainEventBody?: { onChainEvent?: OnChainEventJson };
  mergeFailureBody?: { message?: MessageJson; code: string; reason: string };
  blockConfirmedBody?: {
    blockNumber: number;
    shardIndex: number;
    timestamp: number;
    blockHash: string;
    totalEvents: number;
  };
  blockNumber?: number;
  shardIndex?: number;
  timestamp?: number;
}

function messageBody(
  message: HubEvent["pruneMessageBody"],
  profile: NamingProfile,
): { message?: MessageJson } {
  return message?.message === undefined ? {} : { message: renderMessage(message.message, profile) };
}

/**
 * The successor-node stamps (blockNumber, shardIndex, timestamp) did not exist in the reference
 * hub's schema, so they only appear when something actually set them.
 */
export function renderHubEvent(event: HubEvent, profile: NamingProfile): HubEventJson {
  const out: HubEventJson = { type: enumName(HUB_EVENT_TYPE_NAMES, event.type), id: event.id };
  const merge = event.mergeMessageBody;
  if (merge !== undefined) {
    const body: NonNullable<HubEventJson["mergeMessageBody"]> = {} as NonNullable<
      HubEventJson["mergeMessageBody"]
    >;
    if (merge.message !== undefined) body.message = renderMessage(merge.message, profile);
    body.deletedMessages = merge.deletedMessages.map((m) => renderMessage(m, profile));
    out.mergeMessageBody = body;
  }
  if (event.pruneMessageBody !== undefined)
    out.pruneMessageBody = messageBody(event.pruneMessageBody, profile);
  if (event.revokeMessageBody !== undefined)
    out.revokeMessageBody = messageBody(event.revokeMessageBody, profile);
  const proof = event.mergeUsernameProofBody;
  if (proof !== undefined) {
    const body: NonNullable<HubEventJson["mergeUsernameProofBody"]> = {};
    if (proof.usernameProof !== undefined)
      body.usernameProof = renderUserNameProof(proof.usernameProof, profile);
    if (proof.deletedUsernameProof !== undefined) {
      body.deletedUsernameProof = renderUserNameProof(proof.deletedUsernameProof, profile);
    }
    if (proof.usernameProofMessage !== undefined) {
      body.usernameProofMessage = renderMessage(proof.usernameProofMessage, profile);
    }
    if (proof.deletedUsernameProofMessage !== undefined) {
      body.deletedUsernameProofMessage = renderMessage(proof.deletedUsernameProofMessage, profile);
    }
    out.mergeUsernameProofBody = body;
  }
  const onChain = event.mergeOnChainEventBody;
  if (onChain !== undefined) {
    out.mergeOnChainEventBody =
      onChain.onChainEvent === undefined ? {} : { onChainEvent: renderOnChainEvent(onChain.onChainEvent) };
  }
  const failure = event.mergeFailure;
  if (failure !== undefined) {
    const body = {} as NonNullable<HubEventJson["mergeFailureBody"]>;
    if (failure.message !== undefined) body.message = renderMessage(failure.message, profile);
    body.code = failure.code;
    body.reason = failure.reason;
    out.mergeFailureBody = body;
  }
  const block = event.blockConfirmedBody;
  if (block !== undefined) {
    out.blockConfirmedBody = {
      blockNumber: block.blockNumber,
      shardIndex: block.shardIndex,
      timestamp: block.timestamp,
      blockHash: toHexJson(block.blockHash),
      totalEvents: block.totalEvents,
    };
  }
  if (event.blockNumber !== 0) out.blockNumber = event.blockNumber;
  if (event.shardIndex !== 0) out.shardIndex = event.shardIndex;
  if (event.timestamp !== 0) out.timestamp = event.timestamp;
  return out;
}
