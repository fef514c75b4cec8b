/**
 * SubmitMessage, ValidateMessage and SubmitBulkMessages. Requests arrive as the bytes the client sent
 * (wire.ts) and go to the same service methods as the HTTP API's submits; an answer is the message
 * as stored. With --rpc-auth, both submits need Basic credentials in the `authorization` metadata,
 * checked before the request is read (callLimits.ts).
 */
import { bulkMessages } from "../bulk.js";
import { type GrpcContext, type Handlers, unary } from "./call.js";
import type { BulkAnswer } from "./wire.js";

export function writeHandlers(ctx: GrpcContext): Handlers {
  const { service } = ctx;
  return {
    submitMessage: unary(ctx, async (bytes: Buffer) => service.submitMessageBytes(bytes)),
    validateMessage: unary(ctx, async (bytes: Buffer) => service.validateMessageBytes(bytes)),
    submitBulkMessages: unary(ctx, async (bytes: Buffer): Promise<BulkAnswer[]> => {
      const outcomes = await service.submitBulkMessages(bulkMessages(bytes));
      return outcomes.map((outcome) =>
        outcome.ok
          ? { message: outcome.bytes }
          : {
              error: {
                hash: Buffer.from(outcome.hash.replace(/^0x/, ""), "hex"),
                errCode: outcome.error.errCode,
                message: outcome.error.message,
              },
            },
      );
    }),
  };
}
