export type { ErrorReply, ErrorShape } from "./errors.js";
export {
  type ConnectionLimits,
  connectionLimits,
  createHttpServer,
  type HttpOptions,
  type HttpServerOptions,
  type RouteEntry,
} from "./server.js";
export type { ReadinessCheck } from "./readiness.js";
export type { ApiDescription } from "./openapi.js";
export { operatorGuard, operatorRefusal, isLoopback, isMachineLocal, normalOrigin } from "./operator.js";
export { clientAddressKey } from "./clientAddress.js";
export { listen, StartupError } from "./listen.js";
export { createLogger, type Logger } from "./logger.js";
export { RateLimiter } from "./rateLimiter.js";
export { type SignedWriteLimits, SignedWriteLimiter } from "./signedWriteLimits.js";
export { sendJson } from "./sendJson.js";
