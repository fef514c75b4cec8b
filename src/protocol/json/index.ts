export * from "./renderMessage.js";
export * from "./renderOnChainEvent.js";
export * from "./renderUserNameProof.js";
export * from "./renderHubEvent.js";
export { parseOnChainEvent } from "./parseOnChainEvent.js";
export { parseUserNameProof } from "./parseUserNameProof.js";
export { toBase58Json, toBase64Json, toHexJson, toUtf8Json } from "./bytes.js";
export { writeMessageJson } from "./writeMessage.js";
