/** GetFidAddressType (the HTTP API's fidAddressType). */
import type {
  FidAddressTypeRequest,
  FidAddressTypeResponse,
} from "../../../protocol/generated/request_response.js";
import { type GrpcContext, type Handlers, unary } from "./call.js";

export function addressHandlers(ctx: GrpcContext): Handlers {
  return {
    getFidAddressType: unary(ctx, async (request: FidAddressTypeRequest): Promise<FidAddressTypeResponse> =>
      ctx.service.addresses.typeOf(request.fid, request.address),
    ),
  };
}
