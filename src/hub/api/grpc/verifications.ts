/** GetVerification and GetVerificationsByFid (the HTTP API's verificationsByFid with and without an address). */
import { MessageType } from "../../../protocol/generated/message.js";
import type { FidRequest, VerificationRequest } from "../../../protocol/generated/request_response.js";
import { StoreType } from "../../data/keys.js";
import { fidList } from "../../data/messageReads.js";
import { type GrpcContext, type Handlers, messagePage, storedMessage, unary } from "./call.js";

const ADD = MessageType.VERIFICATION_ADD_ETH_ADDRESS;

export function verificationHandlers(ctx: GrpcContext): Handlers {
  return {
    getVerification: unary(ctx, async (request: VerificationRequest) =>
      storedMessage(
        ctx,
        { fid: request.fid, store: StoreType.VERIFICATIONS, setKey: request.address, type: ADD },
        "verification",
      ),
    ),
    getVerificationsByFid: unary(ctx, async (request: FidRequest) =>
      messagePage(
        ctx,
        fidList(ctx.database.db, request.fid, StoreType.VERIFICATIONS, { types: [ADD] }),
        request,
      ),
    ),
  };
}
