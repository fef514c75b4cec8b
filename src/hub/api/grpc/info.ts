/**
 * GetInfo, GetFids and GetConnectedPeers. castnet is one node with one shard of data, reported as
 * the successor node reports each of its data shards; it has no peers.
 */
import type {
  FidsRequest,
  GetConnectedPeersResponse,
  GetInfoResponse,
} from "../../../protocol/generated/request_response.js";
import { type GrpcContext, type Handlers, pageOf, unary } from "./call.js";

const FID_KEY_LENGTH = 8;

export function infoHandlers(ctx: GrpcContext): Handlers {
  const { service } = ctx;
  return {
    getInfo: unary(ctx, async (): Promise<GetInfoResponse> => {
      const info = await service.info(true);
      // The successor's totals are sums over its data shards.
      const total = (key: "numMessages" | "numFidRegistrations" | "approxSize") =>
        info.shardInfos.reduce((sum, shard) => sum + shard[key], 0);
      return {
        version: info.version,
        dbStats: {
          numMessages: total("numMessages"),
          numFidRegistrations: total("numFidRegistrations"),
          approxSize: total("approxSize"),
        },
        peerId: info.peerId,
        numShards: info.numShards,
        shardInfos: info.shardInfos.map((shard) => ({
          ...shard,
          numOnchainEvents: info.dbStats?.numFidEvents ?? 0,
        })),
        nextEngineVersionTimestamp: 0,
      };
    }),
    getFids: unary(ctx, async (request: FidsRequest) => {
      const page = await service.onChain.fids(pageOf(request, FID_KEY_LENGTH));
      const next = page.nextPageToken;
      return { fids: page.fids, nextPageToken: next === undefined ? undefined : Buffer.from(next, "base64") };
    }),
    getConnectedPeers: unary(ctx, async (): Promise<GetConnectedPeersResponse> => ({
      contacts: [],
      peers: [],
    })),
  };
}
