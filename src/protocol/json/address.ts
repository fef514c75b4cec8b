import { Protocol } from "../generated/message.js";
import { toBase58Json, toHexJson } from "./bytes.js";

/** The reference switches address-like keys to base58 when the same object says PROTOCOL_SOLANA. */
export function addressJson(bytes: Uint8Array, protocol: Protocol): string {
  return protocol === Protocol.SOLANA ? toBase58Json(bytes) : toHexJson(bytes);
}
