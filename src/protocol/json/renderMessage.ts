/**
 * Message → the reference hub's JSON (docs/reference/hub-http-api.md §5): ts-proto field names and order,
 * every scalar even when zero, oneof members only when set, then the hub's per-key byte rewrites. Each
 * body's JSON is its own (src/protocol/bodies/); this writes the envelope and MessageData around them.
 */
import { BODIES, type BodyKind, type BodyKinds } from "../bodies/index.js";
import { SEVERAL_BODIES, onlyBody } from "../bodies/onlyBody.js";
import type { Message, MessageData } from "../generated/message.js";
import type { NamingProfile } from "../naming.js";
import { toBase64Json, toHexJson } from "./bytes.js";
import {
  HASH_SCHEME_NAMES,
  MESSAGE_TYPE_NAMES,
  SIGNATURE_SCHEME_NAMES,
  enumName,
  profileNames,
} from "./enums.js";

type EnumJson = string | number;

type BodiesJson = { [K in BodyKinds as K["field"]]?: ReturnType<K["render"]> };
type AliasesJson = { [K in Extract<BodyKinds, { alias: string }> as K["alias"]]?: ReturnType<K["render"]> };

export type MessageDataJson = {
  type: EnumJson;
  fid: number;
  timestamp: number;
  network: EnumJson;
} & BodiesJson &
  AliasesJson;

export interface MessageJson {
  data?: MessageDataJson;
  hash: string;
  hashScheme: EnumJson;
  signature: string;
  signatureScheme: EnumJson;
  signer: string;
  dataBytes?: string;
}

const ALIASED = BODIES.filter((kind) => kind.alias !== undefined);

// Keys come from the table, so the object is written through a looser view of itself.
function renderBody(out: Record<string, unknown>, kind: BodyKind, data: MessageData, profile: NamingProfile) {
  const body = data[kind.field];
  if (body !== undefined) out[kind.field] = kind.render(body, profile);
}

export function renderMessageData(data: MessageData, profile: NamingProfile): MessageDataJson {
  const out: MessageDataJson = {
    type: enumName(MESSAGE_TYPE_NAMES, data.type),
    fid: data.fid,
    timestamp: data.timestamp,
    network: enumName(profileNames(profile).network, data.network),
  };
  const bodies = out as Record<string, unknown>;
  const only = onlyBody(data);
  if (only >= 0) renderBody(bodies, BODIES[only]!, data, profile);
  // Several bodies make a message invalid, but the hub renders what it is given.
  else if (only === SEVERAL_BODIES) for (const kind of BODIES) renderBody(bodies, kind, data, profile);
  for (const kind of ALIASED) {
    const json = bodies[kind.field];
    if (json !== undefined) bodies[kind.alias!] = json;
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
