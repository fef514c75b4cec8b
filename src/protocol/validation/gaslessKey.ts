/**
 * The checks of KEY_ADD and KEY_REMOVE that need no state (docs/reference/gasless-signers.md), with
 * the successor node's sentences: the bodies' fields, then, after the envelope's own signature, the
 * EIP-712 signatures they carry. Who the custody address and the requesting app's custody are is
 * state, so the recovered addresses travel on to the merge (`KeyAuthority`) to be compared there.
 */
import type { Address, TypedDataDefinition } from "viem";
import { gaslessKeyRequestTypedData, keyAddTypedData, keyRemoveTypedData } from "../eip712/gaslessKey.js";
import { matchProfile, profilesFrom, recoverTypedDataSigner } from "../eip712/verify.js";
import type { HubError } from "../errors.js";
import { MessageType, type KeyAddBody, type KeyRemoveBody, type Message } from "../generated/message.js";
import { KEY_TYPE_ED25519 } from "../contracts.js";
import { bytesEqual } from "../hash.js";
import { toHex } from "../hex.js";
import type { NamingProfile } from "../naming.js";
import { once } from "../../once.js";
import { invalid } from "./errors.js";
import type { KeyAuthority } from "./types.js";

export const METADATA_TYPE_SIGNED_KEY_REQUEST = 1;
export const KEY_REMOVE_BY_CUSTODY = 1;
export const KEY_REMOVE_BY_ITSELF = 2;
/** The longest sliding window a key may ask for: 90 days. */
export const MAX_KEY_TTL_SECONDS = 90 * 24 * 60 * 60;
export const MAX_KEY_ADD_SCOPES = 16;
/** Keys added by message one fid may hold at once; on-chain keys are not counted. */
export const MAX_GASLESS_KEYS_PER_FID = 1000;

/**
 * The message types a key added by message may be allowed to sign. Key messages themselves are
 * not among them: a key must never add or remove keys.
 */
export const ADMISSIBLE_KEY_SCOPES: ReadonlySet<MessageType> = new Set([
  MessageType.CAST_ADD,
  MessageType.CAST_REMOVE,
  MessageType.REACTION_ADD,
  MessageType.REACTION_REMOVE,
  MessageType.LINK_ADD,
  MessageType.LINK_REMOVE,
  MessageType.VERIFICATION_ADD_ETH_ADDRESS,
  MessageType.VERIFICATION_REMOVE,
  MessageType.USER_DATA_ADD,
  MessageType.USERNAME_PROOF,
  MessageType.FRAME_ACTION,
  MessageType.LINK_COMPACT_STATE,
  MessageType.LEND_STORAGE,
]);

export function validateKeyAddBody(body: KeyAddBody): HubError | undefined {
  if (body.key.length !== 32) return invalid("key must be 32 bytes");
  if (body.keyType !== KEY_TYPE_ED25519) return invalid("invalid key type");
  if (body.deadline === 0) return invalid("deadline is missing");
  if (body.ttl === 0 || body.ttl > MAX_KEY_TTL_SECONDS) {
    return invalid(`ttl must be > 0 and <= ${MAX_KEY_TTL_SECONDS} seconds`);
  }
  if (body.metadataType !== METADATA_TYPE_SIGNED_KEY_REQUEST) return invalid("invalid metadata type");
  if (body.metadata.length === 0) return invalid("metadata is missing");
  if (body.scopes.length === 0) return invalid("scopes must be non-empty");
  if (body.scopes.length > MAX_KEY_ADD_SCOPES) {
    return invalid(`scopes list exceeds max of ${MAX_KEY_ADD_SCOPES} entries`);
  }
  for (const scope of body.scopes) {
    if (!ADMISSIBLE_KEY_SCOPES.has(scope)) return invalid(`scope "${scope}" is not a valid MessageType`);
  }
  return undefined;
}

export function validateKeyRemoveBody(body: KeyRemoveBody): HubError | undefined {
  if (body.key.length !== 32) return invalid("key must be 32 bytes");
  if (body.signatureType !== KEY_REMOVE_BY_CUSTODY && body.signatureType !== KEY_REMOVE_BY_ITSELF) {
    return invalid("invalid signature type");
  }
  if (body.deadline === 0) return invalid("deadline is missing");
  return undefined;
}

/** Loaded with the first key message: the ABI decoder pulls in viem. */
const keyMetadata = once(() => import("../eip712/keyMetadata.js"));

const badRequest = () => invalid("SignedKeyRequest metadata is malformed or signature does not verify");

/** A 65-byte r‖s‖v signature's signer (the successor takes no compact form), or undefined. */
function recover(typedData: TypedDataDefinition, signature: Uint8Array): Promise<Address | undefined> {
  if (signature.length !== 65) return Promise.resolve(undefined);
  return recoverTypedDataSigner(typedData, signature);
}

async function keyAddAuthority(
  message: Message,
  body: KeyAddBody,
  preferred: NamingProfile,
): Promise<HubError | KeyAuthority> {
  const data = message.data!;
  let metadata;
  try {
    metadata = (await keyMetadata()).decodeSignedKeyRequestMetadata(body.metadata);
  } catch {
    return badRequest();
  }
  if (metadata.deadline < BigInt(data.timestamp)) return invalid("SignedKeyRequest deadline has expired");
  if (metadata.requestFid > BigInt(Number.MAX_SAFE_INTEGER)) return badRequest();
  const key = toHex(body.key);
  const request = { requestFid: metadata.requestFid, key, deadline: metadata.deadline };
  // The app's signature names its signer, so it also tells which profile's domain the client used.
  const profile = await matchProfile(
    preferred,
    (p) => gaslessKeyRequestTypedData(p, request),
    metadata.signature,
    metadata.requestSigner,
  );
  if (profile === undefined) return badRequest();
  const custody = await recover(
    keyAddTypedData(profile, {
      fid: BigInt(data.fid),
      key,
      keyType: body.keyType,
      scopes: body.scopes,
      ttl: body.ttl,
      nonce: body.nonce,
      deadline: body.deadline,
    }),
    body.custodySignature,
  );
  if (custody === undefined) return invalid("invalid signature");
  return {
    custody: [custody.toLowerCase() as Address],
    request: { fid: Number(metadata.requestFid), signer: metadata.requestSigner.toLowerCase() as Address },
  };
}

async function keyRemoveAuthority(
  message: Message,
  body: KeyRemoveBody,
  preferred: NamingProfile,
): Promise<HubError | KeyAuthority> {
  if (body.signatureType === KEY_REMOVE_BY_ITSELF) {
    // The envelope, already verified, is the key's own signature: it must be the key removed.
    return bytesEqual(message.signer, body.key) ? { custody: [] } : invalid("invalid signature");
  }
  const data = message.data!;
  const auth = { fid: BigInt(data.fid), key: toHex(body.key), nonce: body.nonce, deadline: body.deadline };
  // Nothing in the body names the signer, so each profile's reading is a candidate for the custody.
  const custody: Address[] = [];
  for (const profile of profilesFrom(preferred)) {
    const signer = await recover(keyRemoveTypedData(profile, auth), body.signature);
    if (signer !== undefined) custody.push(signer.toLowerCase() as Address);
  }
  return custody.length === 0 ? invalid("invalid signature") : { custody };
}

/** The addresses a key message's EIP-712 signatures recover to, or why they do not. */
export function recoverKeyAuthority(
  message: Message,
  preferred: NamingProfile,
): Promise<HubError | KeyAuthority> {
  const data = message.data!;
  return data.type === MessageType.KEY_ADD
    ? keyAddAuthority(message, data.keyAddBody!, preferred)
    : keyRemoveAuthority(message, data.keyRemoveBody!, preferred);
}
