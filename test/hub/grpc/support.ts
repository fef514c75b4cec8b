/** The reference client library, unchanged, against a test stack's hub gRPC server. */
import { getInsecureHubRpcClient, type HubRpcClient } from "@farcaster/hub-nodejs";
import type { Hub } from "../../../src/hub/index.js";

export interface GrpcClient {
  client: HubRpcClient;
  address: string;
  close(): void;
}

/** Binds the hub's gRPC server on a free loopback port and connects the reference client to it. */
export async function connect(hub: Hub): Promise<GrpcClient> {
  const port = await hub.grpc.listen("127.0.0.1", 0);
  const address = `127.0.0.1:${port}`;
  const client = getInsecureHubRpcClient(address);
  return { client, address, close: () => client.close() };
}

/** The value of a neverthrow result the test expects to be ok. */
export function ok<T>(result: { isOk(): boolean; _unsafeUnwrap(): T; _unsafeUnwrapErr(): unknown }): T {
  if (!result.isOk()) throw new Error(`expected success, got ${JSON.stringify(result._unsafeUnwrapErr())}`);
  return result._unsafeUnwrap();
}

/** The HubError of a result the test expects to be refused. */
export function refused(result: { isErr(): boolean; _unsafeUnwrapErr(): unknown }): {
  errCode: string;
  message: string;
} {
  if (!result.isErr()) throw new Error("expected a refusal, got success");
  return result._unsafeUnwrapErr() as { errCode: string; message: string };
}
