/**
 * The registries' state read as values (docs/reference/contracts.md §3, §5, §7), for the contract
 * modules, the ledger and the REST door alike: nothing else parses the state's keys or values.
 * A missing key reads as zero, as contract storage does.
 */
import { getAddress, zeroAddress, type Address, type Hex } from "viem";
import { stateKey, type StateReader } from "./state.js";

/** KeyRegistry's key states (§5.1). */
export const KeyState = { null: 0, added: 1, removed: 2 } as const;
export type KeyState = (typeof KeyState)[keyof typeof KeyState];

export interface KeyData {
  state: KeyState;
  keyType: number;
}

async function readBigInt(state: StateReader, key: string): Promise<bigint> {
  return BigInt((await state.get(key)) ?? "0");
}

async function readAddress(state: StateReader, key: string): Promise<Address> {
  const value = await state.get(key);
  return value === undefined ? zeroAddress : getAddress(value);
}

/** The last fid issued (0 before the first). */
export function idCounter(state: StateReader): Promise<bigint> {
  return readBigInt(state, stateKey.idCounter());
}

/** The fid `address` holds, 0 for none (IdRegistry.idOf). */
export function idOf(state: StateReader, address: Address): Promise<bigint> {
  return readBigInt(state, stateKey.idOf(address));
}

/** The fid `address` holds, or undefined. */
export async function fidOfAddress(state: StateReader, address: Address): Promise<bigint | undefined> {
  const fid = await idOf(state, address);
  return fid === 0n ? undefined : fid;
}

export function custodyOf(state: StateReader, fid: bigint): Promise<Address> {
  return readAddress(state, stateKey.custodyOf(fid));
}

export function recoveryOf(state: StateReader, fid: bigint): Promise<Address> {
  return readAddress(state, stateKey.recoveryOf(fid));
}

/** A registered fid's custody and recovery addresses, or undefined for a fid never issued. */
export async function readFid(
  state: StateReader,
  fid: bigint,
): Promise<{ custody: Address; recovery: Address } | undefined> {
  if ((await state.get(stateKey.custodyOf(fid))) === undefined) return undefined;
  return { custody: await custodyOf(state, fid), recovery: await recoveryOf(state, fid) };
}

/** `contract`'s EIP-712 nonce of `address` (its `nonces(address)`). */
export function signatureNonce(state: StateReader, contract: Address, address: Address): Promise<bigint> {
  return readBigInt(state, stateKey.signatureNonce(contract, address));
}

/** How a key's data is written in the state: `<state>,<keyType>`. */
export function keyDataValue(data: KeyData): string {
  return `${data.state},${data.keyType}`;
}

/** A fid's key's state and type; `{0, 0}` for a key never added (KeyRegistry.keyDataOf). */
export async function keyDataOf(state: StateReader, fid: bigint, key: Hex): Promise<KeyData> {
  const value = await state.get(stateKey.keyData(fid, key));
  if (value === undefined) return { state: KeyState.null, keyType: 0 };
  const [keyState, keyType] = value.split(",").map(Number);
  return { state: keyState as KeyState, keyType: keyType ?? 0 };
}

/** How many keys a fid has in a state (KeyRegistry.totalKeys). */
export function totalKeys(state: StateReader, fid: bigint, keyState: KeyState): Promise<bigint> {
  return readBigInt(state, stateKey.keyCount(fid, keyState));
}

/** A fid's keys in a state, `count` of them from `start`, in the order KeyRegistry.keysOf gives. */
export async function keysOf(
  state: StateReader,
  fid: bigint,
  keyState: KeyState,
  start = 0n,
  count?: bigint,
): Promise<Hex[]> {
  const total = await totalKeys(state, fid, keyState);
  const end = count === undefined || start + count > total ? total : start + count;
  const keys: Promise<string | undefined>[] = [];
  for (let index = start; index < end; index++) keys.push(state.get(stateKey.keyAt(fid, keyState, index)));
  return (await Promise.all(keys)) as Hex[];
}

/**
 * A fid's added keys with their types, in KeyRegistry's order. Metadata is not contract storage:
 * it is only in each key's `Add` log.
 */
export async function activeKeys(state: StateReader, fid: bigint): Promise<{ key: Hex; keyType: number }[]> {
  const keys = await keysOf(state, fid, KeyState.added);
  return Promise.all(keys.map(async (key) => ({ key, keyType: (await keyDataOf(state, fid, key)).keyType })));
}

/** Storage units ever rented (StorageRegistry.rentedUnits). */
export function rentedUnits(state: StateReader): Promise<bigint> {
  return readBigInt(state, stateKey.rentedUnits());
}
