/** Ethereum JSON-RPC for the devchain: the transport (server.ts), its errors and its value encodings. */
export { RPC_ERROR_CODES, RpcError, type RpcErrorObject } from "./errors.js";
export * from "./params.js";
export {
  DEFAULT_MAX_BATCH,
  jsonRpcErrorResponseSchema,
  jsonRpcRoutes,
  type JsonRpcRoutesOptions,
  type RpcContext,
  type RpcLimits,
  type RpcMethod,
  type RpcMethods,
} from "./server.js";
