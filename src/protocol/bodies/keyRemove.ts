import { KeyRemoveBody } from "../generated/message.js";
import { toBase64Json, toHexJson } from "../json/bytes.js";
import type { BodyKind } from "./bodyKind.js";

export interface KeyRemoveBodyJson {
  key: string;
  signature: string;
  signatureType: number;
  deadline: number;
  nonce: number;
}

/** Refused (`invalid message type`) as the reference hub refused it: gasless keys are not implemented. */
export const keyRemove = {
  field: "keyRemoveBody",
  fieldNumber: 20,
  types: [],
  render: (body) => ({
    key: toHexJson(body.key),
    signature: toBase64Json(body.signature),
    signatureType: body.signatureType,
    deadline: body.deadline,
    nonce: body.nonce,
  }),
  encode: KeyRemoveBody.encode,
} satisfies BodyKind<"keyRemoveBody", KeyRemoveBodyJson>;
