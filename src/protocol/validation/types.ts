import type { HubError } from "../errors.js";
import type { Message, MessageData } from "../generated/message.js";
import type { NamingProfile } from "../naming.js";

export interface ValidationOptions {
  /** Clock in Unix ms; injectable so tests can pin "now" for the 10-minute future bound. */
  now?: () => number;
  /** Preferred profile for EIP-712 claims (both are accepted). Default: neutral. */
  profile?: NamingProfile;
  /** The reference hub had a switch for these; on by default. */
  solanaVerifications?: boolean;
}

export interface ValidMessage {
  ok: true;
  message: Message;
  /** The MessageData the checks ran on (decoded from the hashed bytes). */
  data: MessageData;
  /** Exactly the bytes that were hashed: the received data_bytes, or our encoding of `data`. */
  dataBytes: Uint8Array;
  hash: Uint8Array;
  /** 4-byte big-endian timestamp ‖ 20-byte hash: the ordering key of every store. */
  tsHash: Uint8Array;
  /** What the Ed25519 signature covered: the hash (reference) or the data bytes (SPEC's reading). */
  signedOver: "hash" | "dataBytes";
  /** For Ethereum verification claims: the profile whose EIP-712 domain the claim was signed under. */
  claimProfile?: NamingProfile;
}

export interface InvalidMessage {
  ok: false;
  error: HubError;
}

export type ValidationResult = ValidMessage | InvalidMessage;
