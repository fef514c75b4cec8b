import { MessageType, VerificationRemoveBody } from "../generated/message.js";
import { addressJson } from "../json/address.js";
import { PROTOCOL_NAMES, enumName } from "../json/enums.js";
import { enumJson, quoted } from "../json/jsonText.js";
import { validateVerificationRemoveBody } from "../validation/verification.js";
import type { BodyKind } from "./bodyKind.js";

export interface VerificationRemoveBodyJson {
  address: string;
  protocol: string | number;
}

export const verificationRemove = {
  field: "verificationRemoveBody",
  fieldNumber: 10,
  types: [MessageType.VERIFICATION_REMOVE],
  validate: validateVerificationRemoveBody,
  render: (body) => ({
    address: addressJson(body.address, body.protocol),
    protocol: enumName(PROTOCOL_NAMES, body.protocol),
  }),
  write: (body) =>
    '{"address":' +
    quoted(addressJson(body.address, body.protocol)) +
    ',"protocol":' +
    enumJson(PROTOCOL_NAMES, body.protocol) +
    "}",
  encode: VerificationRemoveBody.encode,
} satisfies BodyKind<"verificationRemoveBody", VerificationRemoveBodyJson>;
