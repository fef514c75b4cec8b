import { MessageType, KeyRemoveBody } from "../generated/message.js";
import { toBase64Json, toHexJson } from "../json/bytes.js";
import { validateKeyRemoveBody } from "../validation/gaslessKey.js";
import type { BodyKind } from "./bodyKind.js";

export interface KeyRemoveBodyJson {
  key: string;
  signature: string;
  signatureType: number;
  deadline: number;
  nonce: number;
}

/** A gasless key message (docs/reference/gasless-signers.md); its EIP-712 signatures are checked after the envelope's. */
export const keyRemove = {
  field: "keyRemoveBody",
  fieldNumber: 20,
  types: [MessageType.KEY_REMOVE],
  validate: validateKeyRemoveBody,
  render: (body) => ({
    key: toHexJson(body.key),
    signature: toBase64Json(body.signature),
    signatureType: body.signatureType,
    deadline: body.deadline,
    nonce: body.nonce,
  }),
  encode: KeyRemoveBody.encode,
} satisfies BodyKind<"keyRemoveBody", KeyRemoveBodyJson>;
