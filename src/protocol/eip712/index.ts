export * from "./adminTransfer.js";
export * from "./keyGateway.js";
export * from "./keyMetadata.js";
export * from "./signedKeyRequest.js";
export * from "./usernameProof.js";
export * from "./verificationClaim.js";
export { matchProfile, profilesFrom, recoverDigestSigner, type SignatureInput } from "./verify.js";
