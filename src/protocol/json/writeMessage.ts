/**
 * Message → JSON text directly, byte-for-byte what `JSON.stringify(renderMessage(...))` gives,
 * without building the intermediate object. Meant for pages of messages on the hub's read path,
 * where JSON.stringify of the object tree is most of the cost.
 */
import { BODIES } from "../bodies/index.js";
import { onlyBody } from "../bodies/onlyBody.js";
import type { Message, MessageData } from "../generated/message.js";
import type { NamingProfile } from "../naming.js";
import { toBase64Json, toHexJson } from "./bytes.js";
import { HASH_SCHEME_NAMES, MESSAGE_TYPE_NAMES, SIGNATURE_SCHEME_NAMES, profileNames } from "./enums.js";
import { enumJson, quoted } from "./jsonText.js";
import { renderMessageData } from "./renderMessage.js";

/** `,"<field>":` and `,"<alias>":` (or ""), by index in BODIES. */
const KEYS = BODIES.map((kind) => "," + JSON.stringify(kind.field) + ":");
const ALIAS_KEYS = BODIES.map((kind) =>
  kind.alias === undefined ? "" : "," + JSON.stringify(kind.alias) + ":",
);

/** A single body that has a `write` is written directly; anything else goes through the object renderer. */
function dataJson(data: MessageData, profile: NamingProfile): string {
  const only = onlyBody(data);
  const kind = only < 0 ? undefined : BODIES[only];
  if (kind?.write === undefined) return JSON.stringify(renderMessageData(data, profile));

  const body = kind.write(data[kind.field]!, profile);
  const alias = ALIAS_KEYS[only]!;
  return (
    '{"type":' +
    enumJson(MESSAGE_TYPE_NAMES, data.type) +
    ',"fid":' +
    data.fid +
    ',"timestamp":' +
    data.timestamp +
    ',"network":' +
    enumJson(profileNames(profile).network, data.network) +
    KEYS[only]! +
    body +
    (alias === "" ? "" : alias + body) +
    "}"
  );
}

export function writeMessageJson(message: Message, profile: NamingProfile): string {
  let out = "{";
  if (message.data !== undefined) out += '"data":' + dataJson(message.data, profile) + ",";
  out +=
    '"hash":' +
    quoted(toHexJson(message.hash)) +
    ',"hashScheme":' +
    enumJson(HASH_SCHEME_NAMES, message.hashScheme) +
    ',"signature":' +
    quoted(toBase64Json(message.signature)) +
    ',"signatureScheme":' +
    enumJson(SIGNATURE_SCHEME_NAMES, message.signatureScheme) +
    ',"signer":' +
    quoted(toHexJson(message.signer));
  if (message.dataBytes !== undefined) out += ',"dataBytes":' + quoted(toBase64Json(message.dataBytes));
  return out + "}";
}
