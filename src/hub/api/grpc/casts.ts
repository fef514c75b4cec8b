/** GetCast and the cast lists (the HTTP API's castById, castsByFid, castsByParent, castsByMention). */
import { HubError } from "../../../protocol/errors.js";
import { MessageType, type CastId } from "../../../protocol/generated/message.js";
import type { CastsByParentRequest, FidRequest } from "../../../protocol/generated/request_response.js";
import { castIdKey, StoreType, urlKey } from "../../data/keys.js";
import { fidList, mentionList, targetList } from "../../data/messageReads.js";
import { type GrpcContext, type Handlers, messagePage, storedMessage, unary } from "./call.js";

export function castHandlers(ctx: GrpcContext): Handlers {
  const db = ctx.database.db;
  return {
    getCast: unary(ctx, async (request: CastId) =>
      storedMessage(
        ctx,
        { fid: request.fid, store: StoreType.CASTS, setKey: request.hash, type: MessageType.CAST_ADD },
        "cast",
      ),
    ),
    // Adds and removes, as the reference lists them.
    getCastsByFid: unary(ctx, async (request: FidRequest) =>
      messagePage(ctx, fidList(db, request.fid, StoreType.CASTS, {}), request),
    ),
    getCastsByParent: unary(ctx, async (request: CastsByParentRequest) => {
      let target: Uint8Array;
      if (request.parentCastId !== undefined) target = castIdKey(request.parentCastId);
      else if (request.parentUrl !== undefined && request.parentUrl !== "")
        target = urlKey(request.parentUrl);
      else
        throw new HubError("bad_request.invalid_param", "GetCastsByParent needs parentCastId or parentUrl");
      return messagePage(ctx, targetList(db, StoreType.CASTS, target, undefined), request);
    }),
    getCastsByMention: unary(ctx, async (request: FidRequest) =>
      messagePage(ctx, mentionList(db, request.fid), request),
    ),
  };
}
