import type { Address, Hex, LocalAccount, TypedDataDefinition } from "viem";
import { OP_MAINNET_CHAIN_ID, SIGNED_KEY_REQUEST_VALIDATOR_ADDRESS } from "../contracts.js";
import { domainName, type NamingProfile } from "../naming.js";
import { matchProfile, type SignatureInput } from "./verify.js";

export const SIGNED_KEY_REQUEST_TYPES = {
  SignedKeyRequest: [
    { name: "requestFid", type: "uint256" },
    { name: "key", type: "bytes" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export interface SignedKeyRequest {
  requestFid: bigint | number;
  /** The requested Ed25519 public key (32 bytes, 0x hex). */
  key: Hex;
  /** Unix seconds. */
  deadline: bigint | number;
}

export interface ValidatorOptions {
  verifyingContract?: Address;
}

/** SPEC Limits: "Recommended signed-key-request signature validity": 86400 seconds (24 hours). */
export const RECOMMENDED_SIGNED_KEY_REQUEST_VALIDITY_SECONDS = 86_400;

/** Domain "Service SignedKeyRequestValidator" in the neutral profile (SPEC Authentication 4). */
export function signedKeyRequestTypedData(
  profile: NamingProfile,
  request: SignedKeyRequest,
  options: ValidatorOptions = {},
): TypedDataDefinition<typeof SIGNED_KEY_REQUEST_TYPES, "SignedKeyRequest"> {
  return {
    domain: {
      name: domainName(profile, "SignedKeyRequestValidator"),
      version: "1",
      chainId: OP_MAINNET_CHAIN_ID,
      verifyingContract: options.verifyingContract ?? SIGNED_KEY_REQUEST_VALIDATOR_ADDRESS,
    },
    types: SIGNED_KEY_REQUEST_TYPES,
    primaryType: "SignedKeyRequest",
    message: { requestFid: BigInt(request.requestFid), key: request.key, deadline: BigInt(request.deadline) },
  };
}

export function signSignedKeyRequest(
  account: LocalAccount,
  profile: NamingProfile,
  request: SignedKeyRequest,
  options: ValidatorOptions = {},
): Promise<Hex> {
  return account.signTypedData(signedKeyRequestTypedData(profile, request, options));
}

export function verifySignedKeyRequest(
  profile: NamingProfile,
  request: SignedKeyRequest,
  signature: SignatureInput,
  expectedSigner: Address,
  options: ValidatorOptions = {},
): Promise<NamingProfile | undefined> {
  return matchProfile(
    profile,
    (p) => signedKeyRequestTypedData(p, request, options),
    signature,
    expectedSigner,
  );
}
