export * from "./naming.js";
export * from "./errors.js";
export * from "./time.js";
export { blake3_20, bytesEqual } from "./hash.js";
export * from "./ed25519.js";
export * from "./base58.js";
export * from "./contracts.js";
export * from "./message.js";
export { encodeMessageData, encodeMessageDataCanonical } from "./encodeMessageData.js";
export * from "./validation/index.js";
export * from "./json/index.js";
export * from "./eip712/index.js";
export * from "./generated/message.js";
export { UserNameType, UserNameProof } from "./generated/username_proof.js";
export {
  OnChainEventType,
  TierType,
  SignerEventType,
  IdRegisterEventType,
  OnChainEvent,
  TierPurchaseBody,
  SignerEventBody,
  SignerMigratedEventBody,
  IdRegisterEventBody,
  StorageRentEventBody,
} from "./generated/onchain_event.js";
export {
  HubEventType,
  MergeMessageBody,
  PruneMessageBody,
  RevokeMessageBody,
  MergeUserNameProofBody,
  MergeOnChainEventBody,
  MergeFailureBody,
  BlockConfirmedBody,
  HubEvent,
} from "./generated/hub_event.js";
export { SubmitBulkMessagesRequest } from "./generated/request_response.js";
export * from "./gaslessKeyBodies.js";
