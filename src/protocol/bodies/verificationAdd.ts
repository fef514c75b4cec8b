import { MessageType, VerificationAddAddressBody } from "../generated/message.js";
import { addressJson } from "../json/address.js";
import { toBase64Json } from "../json/bytes.js";
import { PROTOCOL_NAMES, enumName } from "../json/enums.js";
import { enumJson, quoted } from "../json/jsonText.js";
import type { BodyKind } from "./bodyKind.js";

export interface VerificationAddAddressBodyJson {
  address: string;
  claimSignature: string;
  blockHash: string;
  verificationType: number;
  chainId: number;
  protocol: string | number;
  /** Pre-rename alias the reference hub keeps for old clients. */
  ethSignature: string;
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

function writeVerificationAdd(body: VerificationAddAddressBody): string {
  const signature = quoted(toBase64Json(body.claimSignature));
  return (
    '{"address":' +
    quoted(addressJson(body.address, body.protocol)) +
    ',"claimSignature":' +
    signature +
    ',"blockHash":' +
    quoted(addressJson(body.blockHash, body.protocol)) +
    ',"verificationType":' +
    body.verificationType +
    ',"chainId":' +
    body.chainId +
    ',"protocol":' +
    enumJson(PROTOCOL_NAMES, body.protocol) +
    ',"ethSignature":' +
    signature +
    "}"
  );
}

/** Its claim check is asynchronous (an Ethereum signature, maybe a contract): validateMessage runs it. */
export const verificationAdd = {
  field: "verificationAddAddressBody",
  fieldNumber: 9,
  types: [MessageType.VERIFICATION_ADD_ETH_ADDRESS],
  render: renderVerificationAdd,
  write: writeVerificationAdd,
  alias: "verificationAddEthAddressBody" as const,
  encode: VerificationAddAddressBody.encode,
} satisfies BodyKind<"verificationAddAddressBody", VerificationAddAddressBodyJson>;
