/** GetInfo and GetFids. castnet is one node with one shard of data; it reports that shard as shard 1. */
import { sql } from "kysely";
import type { FidsRequest, GetInfoResponse } from "../../../protocol/generated/request_response.js";
import { type GrpcContext, type Handlers, pageOf, unary } from "./call.js";

const FID_KEY_LENGTH = 8;

export function infoHandlers(ctx: GrpcContext): Handlers {
  const { service } = ctx;
  return {
    getInfo: unary(ctx, async (): Promise<GetInfoResponse> => {
      const info = await service.info(true);
      const registered = await ctx.database.db
        .selectFrom("hub_fids")
        .select(sql<number | string>`count(*)`.as("n"))
        .executeTakeFirst();
      const numFidRegistrations = Number(registered?.n ?? 0);
      const numMessages = info.dbStats?.numMessages ?? 0;
      const approxSize = info.dbStats?.approxSize ?? 0;
      return {
        version: info.version,
        dbStats: { numMessages, numFidRegistrations, approxSize },
        peerId: info.peerId,
        numShards: 1,
        shardInfos: [
          {
            shardId: 1,
            maxHeight: 0,
            numMessages,
            numFidRegistrations,
            approxSize,
            blockDelay: 0,
            mempoolSize: 0,
            numOnchainEvents: info.dbStats?.numFidEvents ?? 0,
          },
        ],
        nextEngineVersionTimestamp: 0,
      };
    }),
    getFids: unary(ctx, async (request: FidsRequest) => {
      const page = await service.onChain.fids(pageOf(request, FID_KEY_LENGTH));
      const next = page.nextPageToken;
      return { fids: page.fids, nextPageToken: next === undefined ? undefined : Buffer.from(next, "base64") };
    }),
  };
}
