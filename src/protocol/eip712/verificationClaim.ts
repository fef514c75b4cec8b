import type { Address, Hex, LocalAccount, TypedDataDefinition } from "viem";
import { domainName, type NamingProfile } from "../naming.js";
import { matchProfile, type SignatureInput } from "./verify.js";

/** Fixed salt of the verification-claim domain (it has no verifying contract). */
export const VERIFICATION_CLAIM_SALT: Hex =
  "0xf2d857f4a3edcb9b78b4d503bfe733db1e3f6cdc2b7971ee739626c97e86a558";

export const VERIFICATION_CLAIM_TYPES = {
  VerificationClaim: [
    { name: "fid", type: "uint256" },
    { name: "address", type: "address" },
    { name: "blockHash", type: "bytes32" },
    { name: "network", type: "uint8" },
  ],
} as const;

export interface VerificationClaim {
  fid: bigint | number;
  address: Address;
  blockHash: Hex;
  /** The message's network number. */
  network: number;
}

/** chainId only for contract-wallet claims (verification type 1); EOA claims have none. */
export function verificationClaimTypedData(
  profile: NamingProfile,
  claim: VerificationClaim,
  chainId?: number,
): TypedDataDefinition<typeof VERIFICATION_CLAIM_TYPES, "VerificationClaim"> {
  return {
    domain: {
      // "{BRAND} Verify Ethereum Address" (docs/reference/protocol-rules.md §2.3): "Service Verify Ethereum
      // Address" neutrally.
      name: domainName(profile, "Verify Ethereum Address"),
      version: "2.0.0",
      salt: VERIFICATION_CLAIM_SALT,
      ...(chainId === undefined ? {} : { chainId }),
    },
    types: VERIFICATION_CLAIM_TYPES,
    primaryType: "VerificationClaim",
    message: {
      fid: BigInt(claim.fid),
      address: claim.address,
      blockHash: claim.blockHash,
      network: claim.network,
    },
  };
}

export function signVerificationClaim(
  account: LocalAccount,
  profile: NamingProfile,
  claim: VerificationClaim,
): Promise<Hex> {
  return account.signTypedData(verificationClaimTypedData(profile, claim));
}

/** EOA claims: the profile under which `claim.address` signed it, or undefined. */
export function verifyVerificationClaim(
  profile: NamingProfile,
  claim: VerificationClaim,
  signature: SignatureInput,
): Promise<NamingProfile | undefined> {
  return matchProfile(profile, (p) => verificationClaimTypedData(p, claim), signature, claim.address);
}
