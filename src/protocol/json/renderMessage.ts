/**
 * Message → the reference hub's JSON (docs/reference/hub-http-api.md §5): ts-proto field names and order,
 * every scalar even when zero, oneof members only when set, then the hub's per-key byte rewrites. Written out
 * by hand because this runs for every message of every read.
 */
import type {
  CastAddBody,
  CastId,
  Embed,
  FrameActionBody,
  KeyAddBody,
  KeyRemoveBody,
  LendStorageBody,
  LinkBody,
  Message,
  MessageData,
  VerificationAddAddressBody,
  VerificationRemoveBody,
} from "../generated/message.js";
import { Protocol } from "../generated/message.js";
import type { NamingProfile } from "../naming.js";
import { toBase58Json, toBase64Json, toHexJson } from "./bytes.js";
import {
  CAST_TYPE_NAMES,
  HASH_SCHEME_NAMES,
  MESSAGE_TYPE_NAMES,
  PROTOCOL_NAMES,
  REACTION_TYPE_NAMES,
  SIGNATURE_SCHEME_NAMES,
  STORAGE_UNIT_TYPE_NAMES,
  USER_DATA_TYPE_NAMES,
  enumName,
  profileNames,
} from "./enums.js";
import { renderUserNameProof, type UserNameProofJson } from "./renderUserNameProof.js";

type EnumJson = string | number;

export interface CastIdJson {
  fid: number;
  hash: string;
}

export interface EmbedJson {
  url?: string;
  castId?: CastIdJson;
}

export interface CastAddBodyJson {
  embedsDeprecated: string[];
  mentions: number[];
  parentCastId?: CastIdJson;
  parentUrl?: string;
  text: string;
  mentionsPositions: number[];
  embeds: EmbedJson[];
  type: EnumJson;
}

export interface VerificationAddAddressBodyJson {
  address: string;
  claimSignature: string;
  blockHash: string;
  verificationType: number;
  chainId: number;
  protocol: EnumJson;
  /** Pre-rename alias the reference hub keeps for old clients. */
  ethSignature: string;
}

export interface MessageDataJson {
  type: EnumJson;
  fid: number;
  timestamp: number;
  network: EnumJson;
  castAddBody?: CastAddBodyJson;
  castRemoveBody?: { targetHash: string };
  reactionBody?: { type: EnumJson; targetCastId?: CastIdJson; targetUrl?: string };
  verificationAddAddressBody?: VerificationAddAddressBodyJson;
  verificationRemoveBody?: { address: string; protocol: EnumJson };
  userDataBody?: { type: EnumJson; value: string };
  linkBody?: { type: string; displayTimestamp?: number; targetFid?: number };
  usernameProofBody?: UserNameProofJson;
  frameActionBody?: Record<string, unknown>;
  linkCompactStateBody?: { type: string; targetFids: number[] };
  lendStorageBody?: { toFid: number; numUnits: number; unitType: EnumJson };
  keyAddBody?: Record<string, unknown>;
  keyRemoveBody?: Record<string, unknown>;
  /** Same object as verificationAddAddressBody, under its pre-rename key. */
  verificationAddEthAddressBody?: VerificationAddAddressBodyJson;
}

export interface MessageJson {
  data?: MessageDataJson;
  hash: string;
  hashScheme: EnumJson;
  signature: string;
  signatureScheme: EnumJson;
  signer: string;
  dataBytes?: string;
}

export function renderCastId(castId: CastId): CastIdJson {
  return { fid: castId.fid, hash: toHexJson(castId.hash) };
}

function renderEmbed(embed: Embed): EmbedJson {
  const out: EmbedJson = {};
  if (embed.url !== undefined) out.url = embed.url;
  if (embed.castId !== undefined) out.castId = renderCastId(embed.castId);
  return out;
}

function renderCastAdd(body: CastAddBody): CastAddBodyJson {
  const out = {
    embedsDeprecated: body.embedsDeprecated.slice(),
    mentions: body.mentions.slice(),
  } as CastAddBodyJson;
  if (body.parentCastId !== undefined) out.parentCastId = renderCastId(body.parentCastId);
  if (body.parentUrl !== undefined) out.parentUrl = body.parentUrl;
  out.text = body.text;
  out.mentionsPositions = body.mentionsPositions.slice();
  const embeds = new Array<EmbedJson>(body.embeds.length);
  for (let i = 0; i < embeds.length; i++) embeds[i] = renderEmbed(body.embeds[i]!);
  out.embeds = embeds;
  out.type = enumName(CAST_TYPE_NAMES, body.type);
  return out;
}

// The reference switches address-like keys to base58 when the same object says PROTOCOL_SOLANA.
function addressJson(bytes: Uint8Array, protocol: Protocol): string {
  return protocol === Protocol.SOLANA ? toBase58Json(bytes) : toHexJson(bytes);
}

function renderVerificationAdd(body: VerificationAddAddressBody): VerificationAddAddressBodyJson {
  const claimSignature = toBase64Json(body.claimSignature);
  return {
    address: addressJson(body.address, body.protocol),
    claimSignature,
    blockHash: addressJson(body.blockHash, body.protocol),
    verificationType: body.verificationType,
    chainId: body.chainId,
    protocol: enumName(PROTOCOL_NAMES, body.protocol),
    ethSignature: claimSignature,
  };
}

function renderVerificationRemove(body: VerificationRemoveBody): { address: string; protocol: EnumJson } {
  return {
    address: addressJson(body.address, body.protocol),
    protocol: enumName(PROTOCOL_NAMES, body.protocol),
  };
}

function renderLink(body: LinkBody): { type: string; displayTimestamp?: number; targetFid?: number } {
  const out: { type: string; displayTimestamp?: number; targetFid?: number } = { type: body.type };
  if (body.displayTimestamp !== undefined) out.displayTimestamp = body.displayTimestamp;
  if (body.targetFid !== undefined) out.targetFid = body.targetFid;
  return out;
}

function renderFrameAction(body: FrameActionBody): Record<string, unknown> {
  const out: Record<string, unknown> = { url: toBase64Json(body.url), buttonIndex: body.buttonIndex };
  if (body.castId !== undefined) out.castId = renderCastId(body.castId);
  out.inputText = toBase64Json(body.inputText);
  out.state = toBase64Json(body.state);
  out.transactionId = toBase64Json(body.transactionId);
  out.address = toHexJson(body.address);
  return out;
}

function renderLendStorage(body: LendStorageBody): { toFid: number; numUnits: number; unitType: EnumJson } {
  return {
    toFid: body.toFid,
    numUnits: body.numUnits,
    unitType: enumName(STORAGE_UNIT_TYPE_NAMES, body.unitType),
  };
}

function renderKeyAdd(body: KeyAddBody): Record<string, unknown> {
  return {
    key: toHexJson(body.key),
    keyType: body.keyType,
    custodySignature: toBase64Json(body.custodySignature),
    deadline: body.deadline,
    nonce: body.nonce,
    metadata: toBase64Json(body.metadata),
    metadataType: body.metadataType,
    registrationTxHash: toBase64Json(body.registrationTxHash),
    scopes: body.scopes.slice(),
    ttl: body.ttl,
  };
}

function renderKeyRemove(body: KeyRemoveBody): Record<string, unknown> {
  return {
    key: toHexJson(body.key),
    signature: toBase64Json(body.signature),
    signatureType: body.signatureType,
    deadline: body.deadline,
    nonce: body.nonce,
  };
}

export function renderMessageData(data: MessageData, profile: NamingProfile): MessageDataJson {
  const out: MessageDataJson = {
    type: enumName(MESSAGE_TYPE_NAMES, data.type),
    fid: data.fid,
    timestamp: data.timestamp,
    network: enumName(profileNames(profile).network, data.network),
  };
  if (data.castAddBody !== undefined) out.castAddBody = renderCastAdd(data.castAddBody);
  if (data.castRemoveBody !== undefined) {
    out.castRemoveBody = { targetHash: toBase64Json(data.castRemoveBody.targetHash) };
  }
  if (data.reactionBody !== undefined) {
    const body = data.reactionBody;
    const reaction: NonNullable<MessageDataJson["reactionBody"]> = {
      type: enumName(REACTION_TYPE_NAMES, body.type),
    };
    if (body.targetCastId !== undefined) reaction.targetCastId = renderCastId(body.targetCastId);
    if (body.targetUrl !== undefined) reaction.targetUrl = body.targetUrl;
    out.reactionBody = reaction;
  }
  if (data.verificationAddAddressBody !== undefined) {
    out.verificationAddAddressBody = renderVerificationAdd(data.verificationAddAddressBody);
  }
  if (data.verificationRemoveBody !== undefined) {
    out.verificationRemoveBody = renderVerificationRemove(data.verificationRemoveBody);
  }
  if (data.userDataBody !== undefined) {
    out.userDataBody = {
      type: enumName(USER_DATA_TYPE_NAMES, data.userDataBody.type),
      value: data.userDataBody.value,
    };
  }
  if (data.linkBody !== undefined) out.linkBody = renderLink(data.linkBody);
  if (data.usernameProofBody !== undefined) {
    out.usernameProofBody = renderUserNameProof(data.usernameProofBody, profile);
  }
  if (data.frameActionBody !== undefined) out.frameActionBody = renderFrameAction(data.frameActionBody);
  if (data.linkCompactStateBody !== undefined) {
    out.linkCompactStateBody = {
      type: data.linkCompactStateBody.type,
      targetFids: data.linkCompactStateBody.targetFids.slice(),
    };
  }
  if (data.lendStorageBody !== undefined) out.lendStorageBody = renderLendStorage(data.lendStorageBody);
  if (data.keyAddBody !== undefined) out.keyAddBody = renderKeyAdd(data.keyAddBody);
  if (data.keyRemoveBody !== undefined) out.keyRemoveBody = renderKeyRemove(data.keyRemoveBody);
  if (out.verificationAddAddressBody !== undefined) {
    out.verificationAddEthAddressBody = out.verificationAddAddressBody;
  }
  return out;
}

export function renderMessage(message: Message, profile: NamingProfile): MessageJson {
  const out = {} as MessageJson;
  if (message.data !== undefined) out.data = renderMessageData(message.data, profile);
  out.hash = toHexJson(message.hash);
  out.hashScheme = enumName(HASH_SCHEME_NAMES, message.hashScheme);
  out.signature = toBase64Json(message.signature);
  out.signatureScheme = enumName(SIGNATURE_SCHEME_NAMES, message.signatureScheme);
  out.signer = toHexJson(message.signer);
  if (message.dataBytes !== undefined) out.dataBytes = toBase64Json(message.dataBytes);
  return out;
}
