import { verifyEd25519 } from "../ed25519.js";
import { HubError } from "../errors.js";
import {
  CastType,
  HashScheme,
  MessageData,
  MessageType,
  SignatureScheme,
  type Message,
} from "../generated/message.js";
import { encodeMessageData, encodeMessageDataCanonical } from "../encodeMessageData.js";
import { blake3_20, bytesEqual } from "../hash.js";
import { makeTsHash } from "../message.js";
import { NEUTRAL } from "../naming.js";
import { invalid } from "./errors.js";
import { recoverKeyAuthority } from "./gaslessKey.js";
import { validateMessageData } from "./messageData.js";
import type { ValidationOptions, ValidationResult } from "./types.js";
import { verifyUsernameProofSignature } from "./usernameProof.js";
import { validateVerificationAddBody } from "./verification.js";

const DEFAULT_MAX_DATA_BYTES = 2048;

/** The reference's 2048-byte cap, except where the successor node raised it for bigger payloads. */
function maxDataBytes(data: MessageData): number {
  if (data.type === MessageType.LINK_COMPACT_STATE) return 65_536;
  if (data.type === MessageType.CAST_ADD && data.castAddBody?.type === CastType.TEN_K_CAST) return 16_384;
  return DEFAULT_MAX_DATA_BYTES;
}

function fail(error: HubError): ValidationResult {
  return { ok: false, error };
}

async function validate(
  message: Message,
  givenBytes: Uint8Array | undefined,
  options: ValidationOptions,
): Promise<ValidationResult> {
  let data = message.data;
  let dataBytes = givenBytes ?? message.dataBytes;
  if (dataBytes !== undefined && givenBytes === undefined) {
    // Validate what was hashed, never a `data` that may disagree with the carried bytes.
    try {
      data = MessageData.decode(dataBytes);
    } catch {
      return fail(new HubError("bad_request.parse_failure", "could not parse dataBytes as MessageData"));
    }
  }
  if (data === undefined) return fail(invalid("data is missing"));

  const now = options.now === undefined ? Date.now() : options.now();
  const dataError = validateMessageData(data, now);
  if (dataError !== undefined) return fail(dataError);
  let claimProfile;
  if (data.type === MessageType.VERIFICATION_ADD_ETH_ADDRESS) {
    const outcome = await validateVerificationAddBody(data.verificationAddAddressBody!, {
      fid: data.fid,
      network: data.network,
      profile: options.profile ?? NEUTRAL,
      solanaVerifications: options.solanaVerifications ?? true,
    });
    if (outcome instanceof HubError) return fail(outcome);
    claimProfile = outcome.profile;
  }

  // Only bytes that arrived on the wire are size-capped; our own encoding of `data` is not.
  const carried = dataBytes !== undefined;
  if (carried) {
    const cap = maxDataBytes(data);
    if (dataBytes!.length > cap) return fail(invalid(`dataBytes > ${cap} bytes`));
  } else {
    dataBytes = encodeMessageData(data);
  }
  let computed = blake3_20(dataBytes!);
  if (message.hashScheme !== HashScheme.BLAKE3) return fail(invalid("invalid hashScheme"));
  if (!bytesEqual(message.hash, computed)) {
    // A data-only message from a canonical encoder (e.g. the successor node's) hashes differently.
    const canonical = carried ? undefined : encodeMessageDataCanonical(data);
    const alternative = canonical === undefined ? undefined : blake3_20(canonical);
    if (alternative === undefined || !bytesEqual(message.hash, alternative)) {
      return fail(
        invalid(`invalid hash. Expected=${message.hash.join(",")}, computed=${computed.join(",")}`),
      );
    }
    dataBytes = canonical;
    computed = alternative;
  }

  if (message.signatureScheme !== SignatureScheme.ED25519) return fail(invalid("invalid signatureScheme"));
  let signedOver: "hash" | "dataBytes" = "hash";
  if (!verifyEd25519(message.signature, computed, message.signer)) {
    // SPEC reads the signature as covering the data bytes; accept a client that took it literally.
    if (!verifyEd25519(message.signature, dataBytes!, message.signer))
      return fail(invalid("invalid signature"));
    signedOver = "dataBytes";
  }
  // Not a reference check (it resolves the name instead): after the Ed25519 one, which costs less.
  if (data.type === MessageType.USERNAME_PROOF) {
    const proofError = await verifyUsernameProofSignature(
      data.usernameProofBody!,
      options.profile ?? NEUTRAL,
    );
    if (proofError !== undefined) return fail(proofError);
  }
  let keyAuthority;
  if (data.type === MessageType.KEY_ADD || data.type === MessageType.KEY_REMOVE) {
    const outcome = await recoverKeyAuthority({ ...message, data }, options.profile ?? NEUTRAL);
    if (outcome instanceof HubError) return fail(outcome);
    keyAuthority = outcome;
  }

  const result: ValidationResult = {
    ok: true,
    message,
    data,
    dataBytes: dataBytes!,
    hash: computed,
    tsHash: makeTsHash(data.timestamp, computed),
    signedOver,
  };
  if (claimProfile !== undefined) result.claimProfile = claimProfile;
  if (keyAuthority !== undefined) result.keyAuthority = keyAuthority;
  return result;
}

/**
 * Stateless validation of a message, in the reference hub's order and with its error codes and
 * sentences. `dataBytes`, when given, must be the bytes `message.data` was decoded from (as
 * `decodeMessage` returns them); otherwise message.data_bytes is decoded, or `data` encoded.
 * Never throws: hostile input yields `{ ok: false }`.
 */
export async function validateMessage(
  message: Message,
  dataBytes?: Uint8Array,
  options: ValidationOptions = {},
): Promise<ValidationResult> {
  try {
    return await validate(message, dataBytes, options);
  } catch (error) {
    if (error instanceof HubError) return fail(error);
    return fail(invalid(`invalid message: ${error instanceof Error ? error.message : String(error)}`));
  }
}
