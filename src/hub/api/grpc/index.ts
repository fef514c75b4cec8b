/**
 * The hub's gRPC API: the reference node's HubService (rpc.proto) over @grpc/grpc-js, on the same
 * service, stores and event fan-out as the HTTP API, with the same refusals (errors.ts). Built by
 * createHub without listening, like the HTTP app; the CLI binds it (port 2283 by default).
 *
 * The port holds the HTTP ports' limits, from the same options (`ConnectionLimits`): castnet's own
 * listener caps and times connections (connections.ts), an interceptor holds every call to its
 * method's receive limit, `--rpc-auth`, a deadline and a bound on unread answers (callLimits.ts),
 * and grpc-js closes connections idle for the idle timeout, pings the others as often, and lets a
 * connection carry at most MAX_CONCURRENT_CALLS calls at once.
 */
import { Server, ServerCredentials, type ServiceDefinition } from "@grpc/grpc-js";
import { type ConnectionLimits, connectionLimits } from "../../../http/index.js";
import { once } from "../../../once.js";
import type { CredentialCheck } from "../auth.js";
import type { StreamLimits } from "../routes/options.js";
import { addressHandlers } from "./addresses.js";
import { backfillHandlers } from "./backfill.js";
import type { GrpcContext } from "./call.js";
import { callLimits, encodedOnce, MAX_BULK_REQUEST_BYTES } from "./callLimits.js";
import { castHandlers } from "./casts.js";
import { GrpcConnections, type PeerConnection } from "./connections.js";
import { eventHandlers } from "./events.js";
import { infoHandlers } from "./info.js";
import { linkHandlers } from "./links.js";
import { onChainHandlers } from "./onchain.js";
import { proofHandlers } from "./proofs.js";
import { reactionHandlers } from "./reactions.js";
import { subscribeHandlers } from "./subscribe.js";
import { unimplementedService } from "./unimplemented.js";
import { userDataHandlers } from "./userData.js";
import { verificationHandlers } from "./verifications.js";
import { hubServiceDefinition } from "./wire.js";
import { writeHandlers } from "./writes.js";

export type { GrpcContext } from "./call.js";

/** A PEM certificate chain and its private key: the server then speaks TLS only. */
export interface GrpcTls {
  cert: Buffer;
  key: Buffer;
}

export interface HubGrpcServer {
  /** Binds host:port (0 picks a free port) and serves; resolves with the bound port. */
  listen(host: string, port: number): Promise<number>;
  /** Ends the event streams, lets unary calls finish (at most 5 s), stops. Idempotent. */
  close(): Promise<void>;
}

export interface GrpcServerOptions {
  tls?: GrpcTls;
  streams?: StreamLimits;
  /** The time and connection limits of the hub's HTTP server; the defaults when not given. */
  limits?: ConnectionLimits;
  /** Checks submits' `authorization` metadata, when --rpc-auth is set. */
  auth?: CredentialCheck;
}

/** Calls one connection may have open at once (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS). */
export const MAX_CONCURRENT_CALLS = 100;
/** Time a peer has to answer a keepalive ping before its connection is closed. */
const PING_TIMEOUT_MS = 20_000;
const SHUTDOWN_GRACE_MS = 5_000;

/** The service with every answer serialiser taking an answer the interceptor has encoded already. */
function encodingOnce(definition: ServiceDefinition): ServiceDefinition {
  return Object.fromEntries(
    Object.entries(definition).map(([name, method]) => [
      name,
      { ...method, responseSerialize: encodedOnce(method.responseSerialize) },
    ]),
  );
}

export function createGrpcServer(ctx: GrpcContext, options: GrpcServerOptions = {}): HubGrpcServer {
  const limits = options.limits ?? connectionLimits();
  const server = new Server({
    // The bulk submit's: callLimits.ts gives each other method a smaller one.
    "grpc.max_receive_message_length": MAX_BULK_REQUEST_BYTES,
    "grpc.max_concurrent_streams": MAX_CONCURRENT_CALLS,
    "grpc.max_connection_idle_ms": limits.idleTimeoutMs,
    // A peer gone without a word (its Subscribe streams quiet) is found by the ping it does not answer.
    "grpc.keepalive_time_ms": limits.idleTimeoutMs,
    "grpc.keepalive_timeout_ms": PING_TIMEOUT_MS,
    // Channelz keeps statistics per call for a debugging service castnet does not serve.
    "grpc.enable_channelz": 0,
    interceptors: [
      callLimits({
        // The listener is made from the server: calls arrive only once it is.
        connectionOf: (peer): PeerConnection | undefined => connections.of(peer),
        requestTimeoutMs: limits.requestTimeoutMs,
        auth: options.auth,
        logger: ctx.logger,
      }),
    ],
  });
  const streams = subscribeHandlers(ctx, options.streams);
  server.addService(encodingOnce(hubServiceDefinition()), {
    ...writeHandlers(ctx),
    ...infoHandlers(ctx),
    ...eventHandlers(ctx),
    ...streams.handlers,
    ...castHandlers(ctx),
    ...reactionHandlers(ctx),
    ...linkHandlers(ctx),
    ...userDataHandlers(ctx),
    ...verificationHandlers(ctx),
    ...proofHandlers(ctx),
    ...onChainHandlers(ctx),
    ...addressHandlers(ctx),
    ...backfillHandlers(ctx),
  });
  const unimplemented = unimplementedService();
  server.addService(encodingOnce(unimplemented.definition), unimplemented.handlers);
  const credentials =
    options.tls === undefined
      ? ServerCredentials.createInsecure()
      : ServerCredentials.createSsl(null, [{ cert_chain: options.tls.cert, private_key: options.tls.key }]);
  const connections = new GrpcConnections(server.createConnectionInjector(credentials), limits);
  let bound = false;

  return {
    async listen(host, port) {
      const boundPort = await connections.listen(host, port);
      bound = true;
      return boundPort;
    },
    close: once(async () => {
      streams.close();
      if (!bound) return;
      connections.stopAccepting();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, SHUTDOWN_GRACE_MS);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      connections.destroyAll();
    }),
  };
}
