/**
 * The EIP-712 messages of gasless keys (docs/reference/gasless-signers.md): a custody address's
 * KeyAdd and KeyRemove, and the requesting app's SignedKeyRequest, all under one domain
 * "<brand> KeyAdd", version 1, chain id 1 and no verifying contract: nothing on chain checks them,
 * the chain id is only what a wallet shows.
 */
import type { Hex, LocalAccount, TypedDataDefinition } from "viem";
import { domainName, type NamingProfile } from "../naming.js";

export const GASLESS_KEY_CHAIN_ID = 1;

export const KEY_ADD_TYPES = {
  KeyAdd: [
    { name: "fid", type: "uint256" },
    { name: "key", type: "bytes" },
    { name: "keyType", type: "uint32" },
    { name: "scopes", type: "uint32[]" },
    { name: "ttl", type: "uint32" },
    { name: "nonce", type: "uint32" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export const KEY_REMOVE_TYPES = {
  KeyRemove: [
    { name: "fid", type: "uint256" },
    { name: "key", type: "bytes" },
    { name: "nonce", type: "uint32" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** The on-chain validator's SignedKeyRequest fields, signed under the gasless domain instead. */
export const GASLESS_KEY_REQUEST_TYPES = {
  SignedKeyRequest: [
    { name: "requestFid", type: "uint256" },
    { name: "key", type: "bytes" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** What a custody address signs to add a key: the key, what it may sign, for how long, once. */
export interface KeyAddAuthorization {
  fid: bigint | number;
  /** The Ed25519 public key (32 bytes, 0x hex). */
  key: Hex;
  keyType: number;
  /** MessageType numbers. */
  scopes: readonly number[];
  /** Seconds the key stays valid after its last use. */
  ttl: number;
  nonce: number;
  /** Protocol seconds. */
  deadline: bigint | number;
}

/** What a custody address signs to remove a key. */
export interface KeyRemoveAuthorization {
  fid: bigint | number;
  key: Hex;
  nonce: number;
  /** Protocol seconds. */
  deadline: bigint | number;
}

/** What the requesting app signs: this key is requested by that fid, until then. */
export interface GaslessKeyRequest {
  requestFid: bigint | number;
  key: Hex;
  /** Protocol seconds. */
  deadline: bigint | number;
}

function domain(profile: NamingProfile) {
  return { name: domainName(profile, "KeyAdd"), version: "1", chainId: GASLESS_KEY_CHAIN_ID };
}

export function keyAddTypedData(
  profile: NamingProfile,
  auth: KeyAddAuthorization,
): TypedDataDefinition<typeof KEY_ADD_TYPES, "KeyAdd"> {
  return {
    domain: domain(profile),
    types: KEY_ADD_TYPES,
    primaryType: "KeyAdd",
    message: {
      fid: BigInt(auth.fid),
      key: auth.key,
      keyType: auth.keyType,
      scopes: [...auth.scopes],
      ttl: auth.ttl,
      nonce: auth.nonce,
      deadline: BigInt(auth.deadline),
    },
  };
}

export function keyRemoveTypedData(
  profile: NamingProfile,
  auth: KeyRemoveAuthorization,
): TypedDataDefinition<typeof KEY_REMOVE_TYPES, "KeyRemove"> {
  return {
    domain: domain(profile),
    types: KEY_REMOVE_TYPES,
    primaryType: "KeyRemove",
    message: { fid: BigInt(auth.fid), key: auth.key, nonce: auth.nonce, deadline: BigInt(auth.deadline) },
  };
}

export function gaslessKeyRequestTypedData(
  profile: NamingProfile,
  request: GaslessKeyRequest,
): TypedDataDefinition<typeof GASLESS_KEY_REQUEST_TYPES, "SignedKeyRequest"> {
  return {
    domain: domain(profile),
    types: GASLESS_KEY_REQUEST_TYPES,
    primaryType: "SignedKeyRequest",
    message: {
      requestFid: BigInt(request.requestFid),
      key: request.key,
      deadline: BigInt(request.deadline),
    },
  };
}

export function signKeyAdd(account: LocalAccount, profile: NamingProfile, auth: KeyAddAuthorization) {
  return account.signTypedData(keyAddTypedData(profile, auth));
}

export function signKeyRemove(account: LocalAccount, profile: NamingProfile, auth: KeyRemoveAuthorization) {
  return account.signTypedData(keyRemoveTypedData(profile, auth));
}

export function signGaslessKeyRequest(
  account: LocalAccount,
  profile: NamingProfile,
  request: GaslessKeyRequest,
) {
  return account.signTypedData(gaslessKeyRequestTypedData(profile, request));
}
