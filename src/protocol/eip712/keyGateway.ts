import type { Address, Hex, LocalAccount, TypedDataDefinition } from "viem";
import { KEY_GATEWAY_ADDRESS, OP_MAINNET_CHAIN_ID } from "../contracts.js";
import { domainName, type NamingProfile, PROFILES, REFERENCE } from "../naming.js";
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

/** A key gateway domain as wallets receive it (eth_signTypedData_v4 JSON). */
export interface KeyGatewayDomain {
  name?: unknown;
  version?: unknown;
  chainId?: unknown;
  verifyingContract?: unknown;
}

/**
 * Why typed data handed to a signer is not a key gateway `Add` under one of castnet's naming
 * profiles, or undefined when it is. A signer checks this before it signs what a server sent: a
 * server that may ask for any domain may ask for a signature some other contract honours.
 */
export function keyGatewayAddProblem(typed: {
  domain?: KeyGatewayDomain;
  types?: Record<string, readonly { name: string; type: string }[]>;
  primaryType?: unknown;
}): string | undefined {
  const names = PROFILES.map((profile) => domainName(profile, "KeyGateway"));
  const domain = typed.domain ?? {};
  if (typeof domain.name !== "string" || !names.includes(domain.name))
    return `the domain is ${JSON.stringify(domain.name)}, not ${names.map((n) => JSON.stringify(n)).join(" or ")}`;
  if (domain.version !== "1") return `the domain's version is ${JSON.stringify(domain.version)}, not "1"`;
  if (Number(domain.chainId) !== OP_MAINNET_CHAIN_ID)
    return `the domain's chain is ${JSON.stringify(domain.chainId)}, not ${OP_MAINNET_CHAIN_ID}`;
  if (typed.primaryType !== "Add")
    return `the message is ${JSON.stringify(typed.primaryType)}, not a key gateway Add`;
  const fields = (typed.types?.Add ?? []).map((f) => `${f.type} ${f.name}`).join(",");
  const expected = KEY_GATEWAY_ADD_TYPES.Add.map((f) => `${f.type} ${f.name}`).join(",");
  if (fields !== expected) return "the Add type's fields are not the key gateway's";
  return undefined;
}

/**
 * Whether a key gateway domain is the real network's (the reference profile's name, chain 10, the
 * deployed KeyGateway): a custody key of a real fid that signs under it adds the key on the real chain.
 */
export function isRealNetworkKeyGateway(domain: KeyGatewayDomain): boolean {
  return (
    domain.name === domainName(REFERENCE, "KeyGateway") &&
    Number(domain.chainId) === OP_MAINNET_CHAIN_ID &&
    typeof domain.verifyingContract === "string" &&
    domain.verifyingContract.toLowerCase() === KEY_GATEWAY_ADDRESS.toLowerCase()
  );
}
