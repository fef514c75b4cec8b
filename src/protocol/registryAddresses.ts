/**
 * Where the registries live: the OP-mainnet addresses the protocol's client libraries export
 * (docs/reference/contracts.md §1), so that code written for the real network runs unchanged.
 * Written checksummed rather than computed: every command and client loads this module, and viem's
 * getAddress would load all of viem with it (test/devchain/contractAbis.test.ts checks them against the library).
 */
import type { Address } from "viem";

export const CONTRACT_ADDRESSES = {
  idRegistry: "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b",
  idGateway: "0x00000000Fc25870C6eD6b6c7E41Fb078b7656f69",
  keyRegistry: "0x00000000Fc1237824fb747aBDE0FF18990E59b7e",
  keyGateway: "0x00000000fC56947c7E7183f8Ca4B62398CaAdf0B",
  storageRegistry: "0x00000000fcCe7f938e7aE6D3c335bD6a1a7c593D",
  signedKeyRequestValidator: "0x00000000FC700472606ED4fA22623Acf62c60553",
  bundler: "0x00000000FC04c910A0b5feA33b03E0447AD0B0aA",
} as const satisfies Record<string, Address>;

export type ContractName = keyof typeof CONTRACT_ADDRESSES;

/** The first block of the registries' events on OP mainnet, where a follower of the real chain starts. */
export const OP_MAINNET_FIRST_BLOCK = 108_864_739;
