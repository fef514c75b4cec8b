/**
 * KeyRegistry (docs/reference/contracts.md §5.1–§5.2): each fid's keys with their type and state
 * (added, then removed for good), kept in two ordered lists per fid. Keys are added only through
 * the KeyGateway, each checked by the validator of its key type and metadata type.
 */
import { zeroAddress, type Address, type Hex } from "viem";
import { keyRegistryAbi } from "../../protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../../protocol/registryAddresses.js";
import { useNonce, verifySignedMessage } from "./eip712.js";
import { contractModel, emit, emptyRevert, panic, revert, sameAddress } from "./execution.js";
import { idOf, keyDataOf, keyDataValue, KeyState, keysOf, signatureNonce, totalKeys } from "./reads.js";
import { validate } from "./signedKeyRequestValidator.js";
import { stateKey, type CallContext, type StateOverlay } from "./state.js";

const ADDRESS = CONTRACT_ADDRESSES.keyRegistry;

/** The metadata validator of a key type and metadata type: the SignedKeyRequestValidator for key
 * types 1 (Ed25519) and 2 (auth addresses) with metadata type 1 (§5.1), none otherwise. */
function validatorOf(keyType: number, metadataType: number): Address {
  return (keyType === 1 || keyType === 2) && metadataType === 1
    ? CONTRACT_ADDRESSES.signedKeyRequestValidator
    : zeroAddress;
}

/** The fid `owner` holds, or `Unauthorized`. */
async function fidOf(ctx: CallContext, owner: Address): Promise<bigint> {
  const fid = await idOf(ctx.state, owner);
  if (fid === 0n) throw revert(keyRegistryAbi, "Unauthorized");
  return fid;
}

/** A key-state argument: above 2 fails the enum's decoding (no data), NULL is `InvalidState`. */
function listState(value: number): KeyState {
  if (value > KeyState.removed) throw emptyRevert("the key state argument is not a KeyState");
  if (value === KeyState.null) throw revert(keyRegistryAbi, "InvalidState");
  return value as KeyState;
}

async function appendKey(state: StateOverlay, fid: bigint, list: KeyState, key: Hex): Promise<void> {
  const count = await totalKeys(state, fid, list);
  state.set(stateKey.keyAt(fid, list, count), key.toLowerCase());
  state.setBigInt(stateKey.keyIndex(fid, list, key), count);
  state.setBigInt(stateKey.keyCount(fid, list), count + 1n);
}

/** Takes a key out of a list by moving the list's last key into its place (the order changes).
 * The last slot keeps its old value: reads stop at the count. */
async function takeKey(state: StateOverlay, fid: bigint, list: KeyState, key: Hex): Promise<void> {
  const last = (await totalKeys(state, fid, list)) - 1n;
  const index = await state.getBigInt(stateKey.keyIndex(fid, list, key));
  if (index !== last) {
    const moved = (await state.get(stateKey.keyAt(fid, list, last))) as Hex;
    state.set(stateKey.keyAt(fid, list, index), moved);
    state.setBigInt(stateKey.keyIndex(fid, list, moved), index);
  }
  state.setBigInt(stateKey.keyCount(fid, list), last);
}

export interface KeyAdd {
  fidOwner: Address;
  keyType: number;
  key: Hex;
  metadataType: number;
  metadata: Hex;
  /** The devchain's operator vouches for the metadata: the validator is not asked (operator.ts). */
  vouched?: boolean;
}

/** `add(fidOwner, …)`, the KeyGateway's call: checks in §5.2's order, the `Add` log, then the validator. */
export async function add(ctx: CallContext, request: KeyAdd): Promise<void> {
  const { fidOwner, keyType, key, metadataType, metadata, vouched = false } = request;
  if (!sameAddress(ctx.sender, CONTRACT_ADDRESSES.keyGateway)) throw revert(keyRegistryAbi, "Unauthorized");
  const fid = await fidOf(ctx, fidOwner);
  const { state } = ctx;
  if ((await keyDataOf(state, fid, key)).state !== KeyState.null)
    throw revert(keyRegistryAbi, "InvalidState");
  if ((await totalKeys(state, fid, KeyState.added)) >= ctx.prices.maxKeysPerFid) {
    throw revert(keyRegistryAbi, "ExceedsMaximum");
  }
  if (validatorOf(keyType, metadataType) === zeroAddress) {
    throw revert(keyRegistryAbi, "ValidatorNotFound", [keyType, metadataType]);
  }
  await appendKey(state, fid, KeyState.added, key);
  state.set(stateKey.keyData(fid, key), keyDataValue({ state: KeyState.added, keyType }));
  emit(ctx, ADDRESS, keyRegistryAbi, "Add", { fid, keyType, key, keyBytes: key, metadataType, metadata });
  if (!vouched && !(await validate(ctx, key, metadata))) throw revert(keyRegistryAbi, "InvalidMetadata");
}

/** Removes an added key of `fid` for good (`InvalidState` unless added); its type is kept. */
async function remove(ctx: CallContext, fid: bigint, key: Hex): Promise<void> {
  const { state } = ctx;
  const data = await keyDataOf(state, fid, key);
  if (data.state !== KeyState.added) throw revert(keyRegistryAbi, "InvalidState");
  await takeKey(state, fid, KeyState.added, key);
  await appendKey(state, fid, KeyState.removed, key);
  state.set(stateKey.keyData(fid, key), keyDataValue({ state: KeyState.removed, keyType: data.keyType }));
  emit(ctx, ADDRESS, keyRegistryAbi, "Remove", { fid, key, keyBytes: key });
}

/** `remove(key)`: a key of the caller's fid (`Unauthorized` without one). */
export async function removeOwn(ctx: CallContext, key: Hex): Promise<void> {
  await remove(ctx, await fidOf(ctx, ctx.sender), key);
}

export const keyRegistry = contractModel({
  address: ADDRESS,
  abi: keyRegistryAbi,
  async run(ctx, call) {
    const { state, sender } = ctx;
    switch (call.functionName) {
      case "keyDataOf":
        return keyDataOf(state, ...call.args);
      case "keys": {
        const data = await keyDataOf(state, ...call.args);
        return [data.state, data.keyType];
      }
      case "keysOf": {
        const [fid, value, start, batchSize] = call.args;
        const list = listState(value);
        if (start === undefined || batchSize === undefined) return keysOf(state, fid, list);
        const total = await totalKeys(state, fid, list);
        if (start >= total) return [[], 0n];
        const page = await keysOf(state, fid, list, start, batchSize);
        const next = start + BigInt(page.length);
        return [page, next >= total ? 0n : next];
      }
      case "totalKeys":
        return totalKeys(state, call.args[0], listState(call.args[1]));
      case "keyAt": {
        const [fid, value, index] = call.args;
        const list = listState(value);
        if (index >= (await totalKeys(state, fid, list))) throw panic(0x32);
        return (await keysOf(state, fid, list, index, 1n))[0];
      }
      case "maxKeysPerFid":
        return ctx.prices.maxKeysPerFid;
      case "validators":
        return validatorOf(...call.args);
      case "nonces":
        return signatureNonce(state, ADDRESS, call.args[0]);
      case "useNonce":
        return useNonce(ctx, ADDRESS, sender);
      case "add": {
        const [fidOwner, keyType, key, metadataType, metadata] = call.args;
        return add(ctx, { fidOwner, keyType, key, metadataType, metadata });
      }
      case "remove":
        return removeOwn(ctx, call.args[0]);
      case "removeFor": {
        const [fidOwner, key, deadline, sig] = call.args;
        await verifySignedMessage(ctx, {
          contract: "keyRegistry",
          primaryType: "Remove",
          message: { owner: fidOwner, key },
          signer: fidOwner,
          deadline,
          sig,
        });
        return remove(ctx, await fidOf(ctx, fidOwner), key);
      }
    }
  },
});
