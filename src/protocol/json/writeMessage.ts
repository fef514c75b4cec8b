/**
 * Message → JSON text directly, byte-for-byte what `JSON.stringify(renderMessage(...))` gives,
 * without building the intermediate object. Meant for pages of messages on the hub's read path,
 * where JSON.stringify of the object tree is most of the cost.
 */
import type { CastAddBody, CastId, Embed, Message, MessageData } from "../generated/message.js";
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
  USER_DATA_TYPE_NAMES,
  enumName,
  profileNames,
} from "./enums.js";
import { renderMessageData } from "./renderMessage.js";

const str = JSON.stringify;

// Hex, base64 and base58 never need escaping.
function raw(text: string): string {
  return '"' + text + '"';
}

function enumJson(names: readonly (string | undefined)[], value: number): string {
  const name = enumName(names, value);
  return typeof name === "string" ? raw(name) : String(name);
}

function numbers(values: readonly number[]): string {
  return values.length === 0 ? "[]" : "[" + values.join(",") + "]";
}

function castIdJson(castId: CastId): string {
  return '{"fid":' + castId.fid + ',"hash":' + raw(toHexJson(castId.hash)) + "}";
}

function embedJson(embed: Embed): string {
  let out = "{";
  if (embed.url !== undefined) out += '"url":' + str(embed.url);
  if (embed.castId !== undefined)
    out += (embed.url !== undefined ? "," : "") + '"castId":' + castIdJson(embed.castId);
  return out + "}";
}

function castAddJson(body: CastAddBody): string {
  let out = '{"embedsDeprecated":';
  if (body.embedsDeprecated.length === 0) out += "[]";
  else out += "[" + body.embedsDeprecated.map((url) => str(url)).join(",") + "]";
  out += ',"mentions":' + numbers(body.mentions);
  if (body.parentCastId !== undefined) out += ',"parentCastId":' + castIdJson(body.parentCastId);
  if (body.parentUrl !== undefined) out += ',"parentUrl":' + str(body.parentUrl);
  out += ',"text":' + str(body.text);
  out += ',"mentionsPositions":' + numbers(body.mentionsPositions);
  out += ',"embeds":[';
  for (let i = 0; i < body.embeds.length; i++) out += (i === 0 ? "" : ",") + embedJson(body.embeds[i]!);
  return out + '],"type":' + enumJson(CAST_TYPE_NAMES, body.type) + "}";
}

function addressJson(bytes: Uint8Array, protocol: Protocol): string {
  return raw(protocol === Protocol.SOLANA ? toBase58Json(bytes) : toHexJson(bytes));
}

/** Bodies on the hot read path are written directly; rarer ones go through the object renderer. */
function dataJson(data: MessageData, profile: NamingProfile): string {
  let bodies = 0;
  if (data.castAddBody !== undefined) bodies++;
  if (data.reactionBody !== undefined) bodies++;
  if (data.linkBody !== undefined) bodies++;
  if (data.userDataBody !== undefined) bodies++;
  if (data.castRemoveBody !== undefined) bodies++;
  if (data.verificationAddAddressBody !== undefined) bodies++;
  if (data.verificationRemoveBody !== undefined) bodies++;
  const rare =
    data.usernameProofBody !== undefined ||
    data.frameActionBody !== undefined ||
    data.linkCompactStateBody !== undefined ||
    data.lendStorageBody !== undefined ||
    data.keyAddBody !== undefined ||
    data.keyRemoveBody !== undefined;
  if (bodies !== 1 || rare) return str(renderMessageData(data, profile));

  let out =
    '{"type":' +
    enumJson(MESSAGE_TYPE_NAMES, data.type) +
    ',"fid":' +
    data.fid +
    ',"timestamp":' +
    data.timestamp +
    ',"network":' +
    enumJson(profileNames(profile).network, data.network);
  if (data.castAddBody !== undefined) return out + ',"castAddBody":' + castAddJson(data.castAddBody) + "}";
  if (data.castRemoveBody !== undefined) {
    return (
      out + ',"castRemoveBody":{"targetHash":' + raw(toBase64Json(data.castRemoveBody.targetHash)) + "}}"
    );
  }
  if (data.reactionBody !== undefined) {
    const body = data.reactionBody;
    out += ',"reactionBody":{"type":' + enumJson(REACTION_TYPE_NAMES, body.type);
    if (body.targetCastId !== undefined) out += ',"targetCastId":' + castIdJson(body.targetCastId);
    if (body.targetUrl !== undefined) out += ',"targetUrl":' + str(body.targetUrl);
    return out + "}}";
  }
  if (data.linkBody !== undefined) {
    const body = data.linkBody;
    out += ',"linkBody":{"type":' + str(body.type);
    if (body.displayTimestamp !== undefined) out += ',"displayTimestamp":' + body.displayTimestamp;
    if (body.targetFid !== undefined) out += ',"targetFid":' + body.targetFid;
    return out + "}}";
  }
  if (data.userDataBody !== undefined) {
    const body = data.userDataBody;
    return (
      out +
      ',"userDataBody":{"type":' +
      enumJson(USER_DATA_TYPE_NAMES, body.type) +
      ',"value":' +
      str(body.value) +
      "}}"
    );
  }
  if (data.verificationAddAddressBody !== undefined) {
    const body = data.verificationAddAddressBody;
    const signature = raw(toBase64Json(body.claimSignature));
    const inner =
      '{"address":' +
      addressJson(body.address, body.protocol) +
      ',"claimSignature":' +
      signature +
      ',"blockHash":' +
      addressJson(body.blockHash, body.protocol) +
      ',"verificationType":' +
      body.verificationType +
      ',"chainId":' +
      body.chainId +
      ',"protocol":' +
      enumJson(PROTOCOL_NAMES, body.protocol) +
      ',"ethSignature":' +
      signature +
      "}";
    return out + ',"verificationAddAddressBody":' + inner + ',"verificationAddEthAddressBody":' + inner + "}";
  }
  const body = data.verificationRemoveBody!;
  return (
    out +
    ',"verificationRemoveBody":{"address":' +
    addressJson(body.address, body.protocol) +
    ',"protocol":' +
    enumJson(PROTOCOL_NAMES, body.protocol) +
    "}}"
  );
}

export function writeMessageJson(message: Message, profile: NamingProfile): string {
  let out = "{";
  if (message.data !== undefined) out += '"data":' + dataJson(message.data, profile) + ",";
  out +=
    '"hash":' +
    raw(toHexJson(message.hash)) +
    ',"hashScheme":' +
    enumJson(HASH_SCHEME_NAMES, message.hashScheme) +
    ',"signature":' +
    raw(toBase64Json(message.signature)) +
    ',"signatureScheme":' +
    enumJson(SIGNATURE_SCHEME_NAMES, message.signatureScheme) +
    ',"signer":' +
    raw(toHexJson(message.signer));
  if (message.dataBytes !== undefined) out += ',"dataBytes":' + raw(toBase64Json(message.dataBytes));
  return out + "}";
}
