/** Schemas and parameters shared by the devchain's routes. */
import type { DevchainService } from "../service.js";
import { DevchainError } from "../../interfaces/chainErrors.js";

/** What every devchain route plugin is registered with. */
export interface DevchainRoutesOptions {
  chain: DevchainService;
  adminToken?: string;
}

export const hexString = (maxLength: number) => ({ type: "string", maxLength }) as const;
export const address = hexString(42);
export const uint32 = { type: "integer", minimum: 0, maximum: 0xffffffff } as const;
// A string, not an integer: coercion would read "0x1" or "1e3" as numbers.
export const fidParams = {
  type: "object",
  additionalProperties: false,
  required: ["fid"],
  properties: { fid: { type: "string", maxLength: 32 } },
} as const;

export function parseFid(value: string): number {
  const fid = /^[1-9][0-9]*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(fid)) {
    throw new DevchainError(
      "bad_request",
      `fid must be a positive whole number, not "${value.slice(0, 32)}"`,
    );
  }
  return fid;
}

export const waitQuery = {
  type: "object",
  additionalProperties: false,
  properties: { wait: { type: "boolean", default: true } },
} as const;

export const errorBody = {
  type: "object",
  properties: { error: { type: "string" }, message: { type: "string" } },
} as const;
export const transactionStatus = {
  type: "object",
  properties: {
    transactionHash: { type: "string" },
    status: { type: "string" },
    blockNumber: { type: "integer" },
    fid: { type: "integer" },
  },
} as const;
/** Rendered by renderOnChainEvent, as the hub serves it: the schema is protocol/json/eventSchema.ts's. */
export const onChainEvent = { $ref: "OnChainEvent#" } as const;
/** A write answers with its event once mined, or 202 with its transaction's status under ?wait=false. */
export const writeResponses = { 200: onChainEvent, 202: transactionStatus, "4xx": errorBody } as const;
