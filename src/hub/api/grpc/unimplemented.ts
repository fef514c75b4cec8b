/**
 * The reference's HubService methods castnet does not serve, answered UNIMPLEMENTED with a sentence
 * that says why rather than grpc-js's bare "method not found". Their requests are never decoded, so
 * rpc.proto need not declare their types. Listed in docs/hub.md (gRPC).
 */
import { Metadata, type ServiceDefinition, status, type UntypedServiceImplementation } from "@grpc/grpc-js";

const PEER_TO_PEER = "castnet is a single local node: it has no blocks, shard chunks or sync trie";

/** Method name → [server streaming, why it is not served]. */
const METHODS: Record<string, [boolean, string]> = {
  GetBlocks: [true, PEER_TO_PEER],
  GetShardChunks: [false, PEER_TO_PEER],
  GetTrieMetadataByPrefix: [false, PEER_TO_PEER],
};

const raw = (value: Buffer): Buffer => value;

/** UNIMPLEMENTED, with the hub's not_implemented code in the trailer like every other refusal. */
function refusal(method: string, why: string) {
  const metadata = new Metadata();
  metadata.set("errcode", "not_implemented");
  const details = `${method} is not implemented: ${why}`;
  return Object.assign(new Error(details), { code: status.UNIMPLEMENTED, details, metadata });
}

export function unimplementedService(): {
  definition: ServiceDefinition;
  handlers: UntypedServiceImplementation;
} {
  const definition: Record<string, ServiceDefinition[string]> = {};
  const handlers: UntypedServiceImplementation = {};
  for (const [method, [streaming, why]] of Object.entries(METHODS)) {
    definition[method] = {
      path: `/HubService/${method}`,
      requestStream: false,
      responseStream: streaming,
      requestSerialize: raw,
      requestDeserialize: raw,
      responseSerialize: raw,
      responseDeserialize: raw,
    };
    handlers[method] = streaming
      ? (call: { emit(event: "error", error: Error): void }) => call.emit("error", refusal(method, why))
      : (_call: unknown, callback: (error: Error) => void) => callback(refusal(method, why));
  }
  return { definition, handlers };
}
