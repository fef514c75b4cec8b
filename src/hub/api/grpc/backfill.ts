/**
 * The bulk reads indexers backfill with: every message of one store for a fid, adds and removes,
 * optionally between two protocol timestamps (both inclusive, as in the reference).
 */
import type { FidTimestampRequest } from "../../../protocol/generated/request_response.js";
import { StoreType } from "../../data/keys.js";
import { fidList } from "../../data/messageReads.js";
import { type GrpcContext, type Handlers, messagePage, unary } from "./call.js";

export function backfillHandlers(ctx: GrpcContext): Handlers {
  const all = (store: StoreType) =>
    unary(ctx, async (request: FidTimestampRequest) => {
      const filter = { since: request.startTimestamp, until: request.stopTimestamp };
      return messagePage(ctx, fidList(ctx.database.db, request.fid, store, filter), request);
    });
  return {
    getAllCastMessagesByFid: all(StoreType.CASTS),
    getAllReactionMessagesByFid: all(StoreType.REACTIONS),
    getAllVerificationMessagesByFid: all(StoreType.VERIFICATIONS),
    getAllUserDataMessagesByFid: all(StoreType.USER_DATA),
    getAllLinkMessagesByFid: all(StoreType.LINKS),
    // The loans the fid gives, as the successor node answers it (docs/reference/storage-lending.md §7).
    getAllLendStorageMessagesByFid: all(StoreType.STORAGE_LENDS),
  };
}
