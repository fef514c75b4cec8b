export * from "./adminTransfer.js";
export * from "./gaslessKey.js";
export * from "./keyGateway.js";
export * from "./keyMetadata.js";
export * from "./signedKeyRequest.js";
export * from "./usernameProof.js";
export * from "./verificationClaim.js";
export {
  matchProfile,
  profilesFrom,
  recoverDigestSigner,
  recoverTypedDataSigner,
  type SignatureInput,
} from "./verify.js";
