/**
 * On-chain addresses and chain ids of the registries (protocol-wire.md §7.1). EIP-712 domains bind
 * signatures to these addresses, so the devchain deploys "at" the same ones: a signature made for
 * the real contracts verifies locally and vice versa.
 */
import type { Address } from "viem";

export const OP_MAINNET_CHAIN_ID = 10;
export const BASE_CHAIN_ID = 8453;
export const ETH_MAINNET_CHAIN_ID = 1;

export const ID_REGISTRY_ADDRESS: Address = "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b";
export const KEY_REGISTRY_ADDRESS: Address = "0x00000000Fc1237824fb747aBDE0FF18990E59b7e";
export const STORAGE_REGISTRY_ADDRESS: Address = "0x00000000fcCe7f938e7aE6D3c335bD6a1a7c593D";
export const ID_GATEWAY_ADDRESS: Address = "0x00000000Fc25870C6eD6b6c7E41Fb078b7656f69";
export const KEY_GATEWAY_ADDRESS: Address = "0x00000000fC56947c7E7183f8Ca4B62398CaAdf0B";
export const SIGNED_KEY_REQUEST_VALIDATOR_ADDRESS: Address = "0x00000000FC700472606ED4fA22623Acf62c60553";
export const BUNDLER_ADDRESS: Address = "0x00000000FC04c910A0b5feA33b03E0447AD0B0aA";
export const RECOVERY_PROXY_ADDRESS: Address = "0x00000000fcb080a4d6c39a9354da9eb9bc104cd7";
export const TIER_REGISTRY_ADDRESS: Address = "0x00000000fc84484d585c3cf48d213424dfde43fd";

/** verifyingContract of the name registry's username-proof domain (mainnet, chain id 1). */
export const USERNAME_PROOF_VERIFIER_ADDRESS: Address = "0xe3be01d99baa8db9905b33a3ca391238234b79d1";

/** The fname registry server's signer on the reference network (configurable wherever it is used). */
export const REFERENCE_FNAME_SERVER_SIGNER: Address = "0xBc5274eFc266311015793d89E9B591fa46294741";
