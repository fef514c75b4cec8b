/**
 * HubErrors as gRPC statuses, the way the reference node reports them: the status code its HubError
 * code maps to (grpcCodeOf), the sentence as the status details, and the HubError code in the
 * `errcode` trailer, from which the reference client library rebuilds the HubError.
 */
import { Metadata, type ServerErrorResponse } from "@grpc/grpc-js";
import type { Logger } from "../../../http/index.js";
import { HubError } from "../../../protocol/errors.js";

/** The status of a HubError as grpc-js sends it: its code, its sentence, its `errcode` trailer. */
export function hubStatusOf(error: HubError): { code: number; details: string; metadata: Metadata } {
  const metadata = new Metadata();
  metadata.set("errcode", error.errCode);
  return { code: error.code, details: error.message, metadata };
}

export function statusOf(error: HubError): ServerErrorResponse {
  return Object.assign(new Error(error.message), hubStatusOf(error));
}

/** A HubError as its status; anything else is a fault, logged, and answered as `unknown`. */
export function statusOfThrown(error: unknown, logger: Logger): ServerErrorResponse {
  if (error instanceof HubError) return statusOf(error);
  logger.error({ err: error }, "gRPC call failed");
  return statusOf(new HubError("unknown", "the hub failed to handle the request"));
}
