/**
 * Builds the bodies of KEY_ADD and KEY_REMOVE as the reference client library does (the same
 * fields, the same signatures, so the same bytes): the envelope is then signed by the key being
 * added, or by any key for a custody removal, with signMessageData (message.ts).
 */
import type { Hex, LocalAccount } from "viem";
import { KEY_TYPE_ED25519 } from "./contracts.js";
import { signGaslessKeyRequest, signKeyAdd, signKeyRemove } from "./eip712/gaslessKey.js";
import { encodeSignedKeyRequestMetadata } from "./eip712/keyMetadata.js";
import type { KeyAddBody, KeyRemoveBody, MessageType } from "./generated/message.js";
import { fromHex, toHex } from "./hex.js";
import type { NamingProfile } from "./naming.js";
import {
  KEY_REMOVE_BY_CUSTODY,
  KEY_REMOVE_BY_ITSELF,
  METADATA_TYPE_SIGNED_KEY_REQUEST,
} from "./validation/gaslessKey.js";

export interface KeyAddOptions {
  fid: number;
  /** The Ed25519 public key to add. */
  key: Uint8Array;
  scopes: readonly MessageType[];
  /** Seconds the key stays valid after its last use. */
  ttl: number;
  /** Greater than the fid's current user nonce. */
  nonce: number;
  /** Protocol seconds: the app's request and the custody's authorisation are good until then. */
  deadline: number;
  /** The app requesting the key; the fid itself by default. */
  requestFid?: number;
}

/**
 * `custody` holds the fid's custody address; `requester` the custody address of the requesting
 * app's fid (the same account when an fid adds a key for itself).
 */
export async function buildKeyAddBody(
  options: KeyAddOptions,
  custody: LocalAccount,
  profile: NamingProfile,
  requester: LocalAccount = custody,
): Promise<KeyAddBody> {
  const key = toHex(options.key);
  const requestFid = options.requestFid ?? options.fid;
  const requestSignature = await signGaslessKeyRequest(requester, profile, {
    requestFid,
    key,
    deadline: options.deadline,
  });
  const custodySignature = await signKeyAdd(custody, profile, {
    fid: options.fid,
    key,
    keyType: KEY_TYPE_ED25519,
    scopes: options.scopes,
    ttl: options.ttl,
    nonce: options.nonce,
    deadline: options.deadline,
  });
  return {
    key: options.key,
    keyType: KEY_TYPE_ED25519,
    custodySignature: fromHex(custodySignature),
    deadline: options.deadline,
    nonce: options.nonce,
    metadata: fromHex(
      encodeSignedKeyRequestMetadata({
        requestFid,
        requestSigner: requester.address,
        signature: requestSignature,
        deadline: options.deadline,
      }),
    ),
    metadataType: METADATA_TYPE_SIGNED_KEY_REQUEST,
    registrationTxHash: new Uint8Array(),
    scopes: [...options.scopes],
    ttl: options.ttl,
  };
}

export interface KeyRemoveOptions {
  fid: number;
  key: Uint8Array;
  /** By custody: greater than the fid's user nonce; by the key itself: than its app's nonce. */
  nonce: number;
  /** Protocol seconds. */
  deadline: number;
}

/** A removal authorised by the fid's custody address. */
export async function buildKeyRemoveBody(
  options: KeyRemoveOptions,
  custody: LocalAccount,
  profile: NamingProfile,
): Promise<KeyRemoveBody> {
  const signature: Hex = await signKeyRemove(custody, profile, {
    fid: options.fid,
    key: toHex(options.key),
    nonce: options.nonce,
    deadline: options.deadline,
  });
  return {
    key: options.key,
    signature: fromHex(signature),
    signatureType: KEY_REMOVE_BY_CUSTODY,
    deadline: options.deadline,
    nonce: options.nonce,
  };
}

/** A removal by the key itself: the envelope it signs is the authorisation, the body's signature empty. */
export function buildSelfRevokeBody(options: Omit<KeyRemoveOptions, "fid">): KeyRemoveBody {
  return {
    key: options.key,
    signature: new Uint8Array(),
    signatureType: KEY_REMOVE_BY_ITSELF,
    deadline: options.deadline,
    nonce: options.nonce,
  };
}
