/** GetLink and the link lists (the HTTP API's linkById, linksByFid, linksByTargetFid), and compact states. */
import { HubError } from "../../../protocol/errors.js";
import { MessageType } from "../../../protocol/generated/message.js";
import type {
  FidRequest,
  LinkRequest,
  LinksByFidRequest,
  LinksByTargetRequest,
} from "../../../protocol/generated/request_response.js";
import { fidKey, StoreType } from "../../data/keys.js";
import { fidList, targetList } from "../../data/messageReads.js";
import { linkSetKey } from "../../merge/stores/links.js";
import { type GrpcContext, type Handlers, messagePage, required, storedMessage, unary } from "./call.js";

/** An empty link type lists every type. */
function typeOf(linkType: string | undefined): string | undefined {
  return linkType === "" ? undefined : linkType;
}

export function linkHandlers(ctx: GrpcContext): Handlers {
  const db = ctx.database.db;
  return {
    getLink: unary(ctx, async (request: LinkRequest) => {
      const targetFid = required(request.targetFid, "GetLink needs targetFid");
      if (request.linkType === "") throw new HubError("bad_request.invalid_param", "GetLink needs linkType");
      const setKey = linkSetKey(request.linkType, targetFid);
      return storedMessage(
        ctx,
        { fid: request.fid, store: StoreType.LINKS, setKey, type: MessageType.LINK_ADD },
        "link",
      );
    }),
    getLinksByFid: unary(ctx, async (request: LinksByFidRequest) => {
      const filter = { types: [MessageType.LINK_ADD], kind: typeOf(request.linkType) };
      return messagePage(ctx, fidList(db, request.fid, StoreType.LINKS, filter), request);
    }),
    getLinksByTarget: unary(ctx, async (request: LinksByTargetRequest) => {
      const targetFid = required(request.targetFid, "GetLinksByTarget needs targetFid");
      const list = targetList(db, StoreType.LINKS, fidKey(targetFid), typeOf(request.linkType));
      return messagePage(ctx, list, request);
    }),
    getLinkCompactStateMessageByFid: unary(ctx, async (request: FidRequest) => {
      const filter = { types: [MessageType.LINK_COMPACT_STATE] };
      return messagePage(ctx, fidList(db, request.fid, StoreType.LINKS, filter), request);
    }),
  };
}
