/** GetUserData and GetUserDataByFid (the HTTP API's userDataByFid with and without a type). */
import { MessageType } from "../../../protocol/generated/message.js";
import type { FidRequest, UserDataRequest } from "../../../protocol/generated/request_response.js";
import { StoreType, u8 } from "../../data/keys.js";
import { fidList } from "../../data/messageReads.js";
import { type GrpcContext, type Handlers, messagePage, storedMessage, unary } from "./call.js";

export function userDataHandlers(ctx: GrpcContext): Handlers {
  return {
    getUserData: unary(ctx, async (request: UserDataRequest) =>
      storedMessage(
        ctx,
        {
          fid: request.fid,
          store: StoreType.USER_DATA,
          setKey: u8(request.userDataType),
          type: MessageType.USER_DATA_ADD,
        },
        "user data",
      ),
    ),
    getUserDataByFid: unary(ctx, async (request: FidRequest) =>
      messagePage(ctx, fidList(ctx.database.db, request.fid, StoreType.USER_DATA, {}), request),
    ),
  };
}
