/** The hub's JSON as the pages read it: the fields they use of its messages, pages and events. */

/** A message as the hub renders it in JSON (the fields the pages read). */
export interface HubMessage {
  hash: string;
  signer: string;
  signature: string;
  dataBytes?: string;
  data: {
    type: string;
    fid: number;
    timestamp: number;
    castAddBody?: CastBody;
    castRemoveBody?: { targetHash: string };
    reactionBody?: { type: string; targetCastId?: CastId; targetUrl?: string };
    linkBody?: { type: string; targetFid?: number };
    userDataBody?: { type: string; value: string };
    verificationAddAddressBody?: { address: string; protocol?: string };
    usernameProofBody?: { name: string; owner: string };
    lendStorageBody?: { toFid: number; numUnits: number };
  };
}

export interface CastId {
  fid: number;
  hash: string;
}

export interface CastBody {
  text: string;
  mentions?: number[];
  mentionsPositions?: number[];
  parentCastId?: CastId;
  parentUrl?: string;
  embeds?: { url?: string; castId?: CastId }[];
}

export interface HubPage {
  messages: HubMessage[];
  nextPageToken?: string;
}

/** An entry of the hub's event log. */
export interface HubEvent {
  type: string;
  id: number;
  mergeMessageBody?: { message?: HubMessage };
  pruneMessageBody?: { message?: HubMessage };
  revokeMessageBody?: { message?: HubMessage };
  mergeUsernameProofBody?: {
    usernameProof?: { fid: number; name: string };
    deletedUsernameProof?: { fid: number; name: string };
  };
  mergeOnChainEventBody?: { onChainEvent?: OnChainEvent };
  mergeFailureBody?: { message?: HubMessage; reason?: string };
  blockConfirmedBody?: { blockNumber?: number };
}

interface OnChainEvent {
  fid: number;
  type: string;
  idRegisterEventBody?: { eventType: string; to: string };
  signerEventBody?: { eventType: string; key: string };
  storageRentEventBody?: { units: number };
}
