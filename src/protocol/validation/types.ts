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
  /** For KEY_ADD and KEY_REMOVE: who their EIP-712 signatures say authorised them. */
  keyAuthority?: KeyAuthority;
}

/**
 * The addresses a key message's EIP-712 signatures recover to, for the merge to compare with the
 * custody addresses it holds (gaslessKey.ts).
 */
export interface KeyAuthority {
  /**
   * Lowercase addresses the custody signature recovers to: one for a KEY_ADD (under the domain its
   * request was signed under), one per naming profile for a KEY_REMOVE, none for a self-revocation.
   */
  custody: readonly `0x${string}`[];
  /** KEY_ADD: the app that requested the key and the lowercase address that signed its request. */
  request?: { fid: number; signer: `0x${string}` };
}

export interface InvalidMessage {
  ok: false;
  error: HubError;
}

export type ValidationResult = ValidMessage | InvalidMessage;
