/**
 * The registries' logs as the OP-mainnet contracts emit them (docs/reference/contracts.md §3, §5, §7),
 * built with viem from the reference client library's ABIs and addresses, so that tests of castnet's
 * own decoding check it against an independent encoding.
 */
import * as core from "@farcaster/core";
import {
  type Abi,
  type AbiEvent,
  type Address,
  type Hex,
  encodeAbiParameters,
  encodeEventTopics,
} from "viem";

/** What a contract emits: where its block, transaction and index are not yet known. */
export interface EmittedLog {
  address: Address;
  topics: Hex[];
  data: Hex;
}

function emitted(abi: Abi, address: string, name: string, args: Record<string, unknown>): EmittedLog {
  // Matched by name and parameter names: KeyRegistry's guardian events share the key events' names.
  const event = abi.find(
    (item): item is AbiEvent =>
      item.type === "event" && item.name === name && item.inputs.every((input) => input.name! in args),
  );
  if (event === undefined) throw new Error(`no event ${name} with ${Object.keys(args).join(", ")}`);
  const indexed = Object.fromEntries(
    event.inputs.filter((input) => input.indexed).map((input) => [input.name!, args[input.name!]]),
  );
  const unindexed = event.inputs.filter((input) => !input.indexed);
  return {
    address: address as Address,
    topics: encodeEventTopics({ abi: [event], args: indexed } as never) as Hex[],
    data: encodeAbiParameters(
      unindexed,
      unindexed.map((input) => args[input.name!]),
    ),
  };
}

const idRegistry = (name: string, args: Record<string, unknown>) =>
  emitted(core.idRegistryABI, core.ID_REGISTRY_ADDRESS, name, args);
const keyRegistry = (name: string, args: Record<string, unknown>) =>
  emitted(core.keyRegistryABI, core.KEY_REGISTRY_ADDRESS, name, args);

export const registryLog = {
  register: (to: Address, fid: number, recovery: Address) =>
    idRegistry("Register", { to, id: BigInt(fid), recovery }),
  transfer: (from: Address, to: Address, fid: number) =>
    idRegistry("Transfer", { from, to, id: BigInt(fid) }),
  changeRecoveryAddress: (fid: number, recovery: Address) =>
    idRegistry("ChangeRecoveryAddress", { id: BigInt(fid), recovery }),
  recover: (from: Address, to: Address, fid: number) => idRegistry("Recover", { from, to, id: BigInt(fid) }),
  add: (fid: number, key: Hex, metadata: Hex, keyType = 1, metadataType = 1) =>
    keyRegistry("Add", { fid: BigInt(fid), keyType, key, keyBytes: key, metadataType, metadata }),
  remove: (fid: number, key: Hex) => keyRegistry("Remove", { fid: BigInt(fid), key, keyBytes: key }),
  adminReset: (fid: number, key: Hex) => keyRegistry("AdminReset", { fid: BigInt(fid), key, keyBytes: key }),
  migrated: (migratedAt: number) => keyRegistry("Migrated", { migratedAt: BigInt(migratedAt) }),
  rent: (payer: Address, fid: number, units: number) =>
    emitted(core.storageRegistryABI, core.STORAGE_REGISTRY_ADDRESS, "Rent", {
      payer,
      fid: BigInt(fid),
      units: BigInt(units),
    }),
};

/** IdGateway pays the rent of a registration (contracts.md §4): the payer of the Rent it logs. */
export const ID_GATEWAY = core.ID_GATEWAY_ADDRESS as Address;
