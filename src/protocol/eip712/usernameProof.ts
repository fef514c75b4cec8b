import type { Address, Hex, LocalAccount, TypedDataDefinition } from "viem";
import { ETH_MAINNET_CHAIN_ID, USERNAME_PROOF_VERIFIER_ADDRESS } from "../contracts.js";
import { domainName, type NamingProfile } from "../naming.js";
import { matchProfile, type SignatureInput } from "./verify.js";

export const USERNAME_PROOF_TYPES = {
  UserNameProof: [
    { name: "name", type: "string" },
    { name: "timestamp", type: "uint256" },
    { name: "owner", type: "address" },
  ],
} as const;

export interface UsernameProofClaim {
  name: string;
  /** Unix seconds. */
  timestamp: bigint | number;
  owner: Address;
}

export interface UsernameProofOptions {
  verifyingContract?: Address;
}

export function usernameProofTypedData(
  profile: NamingProfile,
  claim: UsernameProofClaim,
  options: UsernameProofOptions = {},
): TypedDataDefinition<typeof USERNAME_PROOF_TYPES, "UserNameProof"> {
  return {
    domain: {
      // "{BRAND} name verification" (docs/reference/protocol-rules.md §7): "Service name verification" in the
      // neutral profile.
      name: domainName(profile, "name verification"),
      version: "1",
      chainId: ETH_MAINNET_CHAIN_ID,
      verifyingContract: options.verifyingContract ?? USERNAME_PROOF_VERIFIER_ADDRESS,
    },
    types: USERNAME_PROOF_TYPES,
    primaryType: "UserNameProof",
    message: { name: claim.name, timestamp: BigInt(claim.timestamp), owner: claim.owner },
  };
}

export function signUsernameProof(
  account: LocalAccount,
  profile: NamingProfile,
  claim: UsernameProofClaim,
  options: UsernameProofOptions = {},
): Promise<Hex> {
  return account.signTypedData(usernameProofTypedData(profile, claim, options));
}

/** The profile whose domain the signature verifies under (preferring `profile`), or undefined. */
export function verifyUsernameProof(
  profile: NamingProfile,
  claim: UsernameProofClaim,
  signature: SignatureInput,
  expectedSigner: Address,
  options: UsernameProofOptions = {},
): Promise<NamingProfile | undefined> {
  return matchProfile(profile, (p) => usernameProofTypedData(p, claim, options), signature, expectedSigner);
}
