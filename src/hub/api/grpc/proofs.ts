/** Username proofs: GetUsernameProof and GetUserNameProofsByFid. */
import type { FidRequest, UsernameProofRequest } from "../../../protocol/generated/request_response.js";
import { type GrpcContext, type Handlers, unary } from "./call.js";

const utf8 = new TextDecoder();

export function proofHandlers(ctx: GrpcContext): Handlers {
  const { service } = ctx;
  return {
    getUsernameProof: unary(ctx, async (request: UsernameProofRequest) =>
      service.names.proofByName(utf8.decode(request.name)),
    ),
    getUserNameProofsByFid: unary(ctx, async (request: FidRequest) => ({
      proofs: await service.names.proofsByFid(request.fid),
    })),
  };
}
