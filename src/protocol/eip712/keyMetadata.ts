import { bytesToHex, decodeAbiParameters, encodeAbiParameters, type Address, type Hex } from "viem";
import { HubError } from "../errors.js";

/** Solidity `abi.encode(SignedKeyRequestMetadata)`: one dynamic tuple, so it starts with a 0x20 offset. */
const METADATA_ABI = [
  {
    type: "tuple",
    components: [
      { name: "requestFid", type: "uint256" },
      { name: "requestSigner", type: "address" },
      { name: "signature", type: "bytes" },
      { name: "deadline", type: "uint256" },
    ],
  },
] as const;

export interface SignedKeyRequestMetadata {
  requestFid: bigint;
  requestSigner: Address;
  signature: Hex;
  deadline: bigint;
}

export function encodeSignedKeyRequestMetadata(metadata: {
  requestFid: bigint | number;
  requestSigner: Address;
  signature: Hex;
  deadline: bigint | number;
}): Hex {
  return encodeAbiParameters(METADATA_ABI, [
    {
      requestFid: BigInt(metadata.requestFid),
      requestSigner: metadata.requestSigner,
      signature: metadata.signature,
      deadline: BigInt(metadata.deadline),
    },
  ]);
}

/** Throws `bad_request.invalid_param` for bytes that are not a well-formed encoding. */
export function decodeSignedKeyRequestMetadata(metadata: Hex | Uint8Array): SignedKeyRequestMetadata {
  const hex = metadata instanceof Uint8Array ? bytesToHex(metadata) : metadata;
  try {
    const [decoded] = decodeAbiParameters(METADATA_ABI, hex);
    return {
      requestFid: decoded.requestFid,
      requestSigner: decoded.requestSigner,
      signature: decoded.signature,
      deadline: decoded.deadline,
    };
  } catch (cause) {
    throw new HubError("bad_request.invalid_param", "invalid signed key request metadata", { cause });
  }
}
