import type { Address, Hex, LocalAccount, TypedDataDefinition } from "viem";
import { KEY_GATEWAY_ADDRESS, OP_MAINNET_CHAIN_ID } from "../contracts.js";
import { domainName, type NamingProfile } from "../naming.js";
import { matchProfile, type SignatureInput } from "./verify.js";

export const KEY_GATEWAY_ADD_TYPES = {
  Add: [
    { name: "owner", type: "address" },
    { name: "keyType", type: "uint32" },
    { name: "key", type: "bytes" },
    { name: "metadataType", type: "uint8" },
    { name: "metadata", type: "bytes" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export interface KeyGatewayAdd {
  owner: Address;
  keyType: number;
  key: Hex;
  metadataType: number;
  metadata: Hex;
  nonce: bigint | number;
  /** Unix seconds. */
  deadline: bigint | number;
}

export interface KeyGatewayOptions {
  verifyingContract?: Address;
}

export function keyGatewayAddTypedData(
  profile: NamingProfile,
  add: KeyGatewayAdd,
  options: KeyGatewayOptions = {},
): TypedDataDefinition<typeof KEY_GATEWAY_ADD_TYPES, "Add"> {
  return {
    domain: {
      // "Service KeyGateway" in the neutral profile.
      name: domainName(profile, "KeyGateway"),
      version: "1",
      chainId: OP_MAINNET_CHAIN_ID,
      verifyingContract: options.verifyingContract ?? KEY_GATEWAY_ADDRESS,
    },
    types: KEY_GATEWAY_ADD_TYPES,
    primaryType: "Add",
    message: {
      owner: add.owner,
      keyType: add.keyType,
      key: add.key,
      metadataType: add.metadataType,
      metadata: add.metadata,
      nonce: BigInt(add.nonce),
      deadline: BigInt(add.deadline),
    },
  };
}

export function signKeyGatewayAdd(
  account: LocalAccount,
  profile: NamingProfile,
  add: KeyGatewayAdd,
  options: KeyGatewayOptions = {},
): Promise<Hex> {
  return account.signTypedData(keyGatewayAddTypedData(profile, add, options));
}

export function verifyKeyGatewayAdd(
  profile: NamingProfile,
  add: KeyGatewayAdd,
  signature: SignatureInput,
  expectedSigner: Address,
  options: KeyGatewayOptions = {},
): Promise<NamingProfile | undefined> {
  return matchProfile(profile, (p) => keyGatewayAddTypedData(p, add, options), signature, expectedSigner);
}
