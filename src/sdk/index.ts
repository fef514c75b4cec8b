/**
 * castnet/client: a typed client for each part's HTTP API, typed from the OpenAPI documents the
 * parts serve (docs/sdk.md).
 */
export {
  HubClient,
  type HubEvent,
  type HubMessagesPath,
  type HubPagedPath,
  type HubPath,
  type MessageJson,
  type MessageObject,
} from "./hub.js";
export { RegistryClient, type Transfer, type TransferRequest, type TransfersQuery } from "./registry.js";
export {
  ClientApiClient,
  type ClientApiPagedPath,
  type KeyRequestApproval,
  type SignedKeyRequest,
  type SignedKeyRequestBody,
} from "./clientApi.js";
export { DevchainClient, type ChainEvent } from "./devchain.js";
export * from "./errors.js";
export type { ClientOptions } from "./transport.js";
export type { paths as HubPaths } from "./generated/hub.js";
export type { paths as RegistryPaths } from "./generated/registry.js";
export type { paths as ClientApiPaths } from "./generated/clientApi.js";
export type { paths as DevchainPaths } from "./generated/devchain.js";
