/**
 * On-chain addresses and chain ids that EIP-712 domains bind signatures to
 * (docs/reference/protocol-wire.md §7.1): a signature made for the real contracts verifies locally and vice
 * versa. Also the protocol's key and metadata type numbers.
 */
import type { Address } from "viem";
import { CONTRACT_ADDRESSES } from "./registryAddresses.js";

export const OP_MAINNET_CHAIN_ID = 10;
export const ETH_MAINNET_CHAIN_ID = 1;

export const KEY_GATEWAY_ADDRESS: Address = CONTRACT_ADDRESSES.keyGateway;
export const SIGNED_KEY_REQUEST_VALIDATOR_ADDRESS: Address = CONTRACT_ADDRESSES.signedKeyRequestValidator;

/** verifyingContract of the name registry's username-proof domain (mainnet, chain id 1). */
export const USERNAME_PROOF_VERIFIER_ADDRESS: Address = "0xe3be01d99baa8db9905b33a3ca391238234b79d1";

/**
 * KeyRegistry key type of an Ed25519 signer, and metadata type of a SignedKeyRequest
 * (docs/reference/protocol-wire.md §7).
 */
export const KEY_TYPE_ED25519 = 1;
export const METADATA_TYPE_SIGNED_KEY_REQUEST = 1;
/**
 * KeyRegistry key type of an auth address: a 32-byte key, a 12-byte big-endian index and then the
 * 20-byte address (docs/reference/contracts.md §5.1).
 */
export const KEY_TYPE_AUTH_ADDRESS = 2;
