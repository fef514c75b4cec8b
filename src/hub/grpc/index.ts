/**
 * The hub's gRPC API: the reference node's HubService (rpc.proto) over @grpc/grpc-js, on the same
 * service, stores and event fan-out as the HTTP API, with the same refusals (errors.ts). Built by
 * createHub without listening, like the HTTP app; the CLI binds it (port 2283 by default).
 */
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { once } from "../../once.js";
import type { StreamLimits } from "../routes/stream.js";
import { backfillHandlers } from "./backfill.js";
import type { GrpcContext } from "./call.js";
import { castHandlers } from "./casts.js";
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

/** The largest request: a bulk submit, with the same limit as the HTTP API's. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
const SHUTDOWN_GRACE_MS = 5_000;

export function createGrpcServer(
  ctx: GrpcContext,
  options: { tls?: GrpcTls; streams?: StreamLimits } = {},
): HubGrpcServer {
  const server = new Server({
    "grpc.max_receive_message_length": MAX_REQUEST_BYTES,
    // Channelz keeps statistics per call for a debugging service castnet does not serve.
    "grpc.enable_channelz": 0,
  });
  const streams = subscribeHandlers(ctx, options.streams);
  server.addService(hubServiceDefinition(), {
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
    ...backfillHandlers(ctx),
  });
  const unimplemented = unimplementedService();
  server.addService(unimplemented.definition, unimplemented.handlers);
  const credentials =
    options.tls === undefined
      ? ServerCredentials.createInsecure()
      : ServerCredentials.createSsl(null, [{ cert_chain: options.tls.cert, private_key: options.tls.key }]);
  let bound = false;

  return {
    listen(host, port) {
      const address = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
      return new Promise((resolve, reject) =>
        server.bindAsync(address, credentials, (error, boundPort) => {
          if (error !== null) return reject(error);
          bound = true;
          resolve(boundPort);
        }),
      );
    },
    close: once(async () => {
      streams.close();
      if (!bound) return;
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
    }),
  };
}
