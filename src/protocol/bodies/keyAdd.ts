import { MessageType, KeyAddBody } from "../generated/message.js";
import { toBase64Json, toHexJson } from "../json/bytes.js";
import { validateKeyAddBody } from "../validation/gaslessKey.js";
import type { BodyKind } from "./bodyKind.js";

export interface KeyAddBodyJson {
  key: string;
  keyType: number;
  custodySignature: string;
  deadline: number;
  nonce: number;
  metadata: string;
  metadataType: number;
  registrationTxHash: string;
  scopes: number[];
  ttl: number;
}

/** A gasless key message (docs/reference/gasless-signers.md); its EIP-712 signatures are checked after the envelope's. */
export const keyAdd = {
  field: "keyAddBody",
  fieldNumber: 19,
  types: [MessageType.KEY_ADD],
  validate: validateKeyAddBody,
  render: (body) => ({
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
  }),
  encode: KeyAddBody.encode,
} satisfies BodyKind<"keyAddBody", KeyAddBodyJson>;
