/**
 * How a modelled contract runs a call (docs/reference/contracts.md §2): calldata dispatched by
 * selector and ABI-decoded as Solidity does, reverts with the contracts' custom errors, logs as the
 * EVM writes them, and ether moved between accounts. Each contract module (idRegistry.ts, …) builds
 * on these.
 */
import {
  decodeAbiParameters,
  encodeAbiParameters,
  encodeErrorResult,
  encodeEventTopics,
  encodeFunctionResult,
  parseAbi,
  toFunctionSelector,
  type Abi,
  type AbiFunction,
  type AbiParameter,
  type Address,
  type ContractErrorArgs,
  type ContractErrorName,
  type ContractEventName,
  type DecodeFunctionDataReturnType,
  type EncodeFunctionResultParameters,
  type GetEventArgs,
  type Hex,
} from "viem";
import { Revert, stateKey, type CallContext, type EmittedLog } from "./state.js";

/** A decoded call of one of `abi`'s functions: its name and typed arguments. */
export type FunctionCall<abi extends Abi> = DecodeFunctionDataReturnType<abi>;

/** A contract at an address, callable with raw calldata. */
export interface ContractModel {
  readonly address: Address;
  /** Runs `input` and returns the ABI-encoded result; throws `Revert`. */
  call(ctx: CallContext, input: Hex): Promise<Hex>;
}

export interface ContractSpec<abi extends Abi> {
  address: Address;
  abi: abi;
  /** Runs a decoded call; returns the function's outputs as viem's encodeFunctionResult takes them. */
  run(ctx: CallContext, call: FunctionCall<abi>): Promise<unknown>;
  /** The contract's `receive()`, for calls without calldata; without one they revert. */
  receive?(ctx: CallContext): void;
}

/** Solidity's revert without data: unknown selector, value to a non-payable function, bad encoding. */
export function emptyRevert(reason: string): Revert {
  return new Revert("0x", reason);
}

/** A revert with one of `abi`'s custom errors (§9: the error of the contract that raises it). */
export function revert<const abi extends Abi, name extends ContractErrorName<abi>>(
  abi: abi,
  errorName: name,
  ...args: ContractErrorArgs<abi, name> extends readonly [] ? [] : [ContractErrorArgs<abi, name>]
): Revert {
  const data = encodeErrorResult({ abi, errorName, args: args[0] } as Parameters<
    typeof encodeErrorResult
  >[0]);
  return new Revert(data, errorName);
}

const panicAbi = parseAbi(["error Panic(uint256 code)"]);

/** Solidity's built-in `Panic(uint256)`: 0x11 arithmetic overflow, 0x32 index out of bounds. */
export function panic(code: 0x11 | 0x32): Revert {
  const data = encodeErrorResult({ abi: panicAbi, errorName: "Panic", args: [BigInt(code)] });
  return new Revert(data, `Panic(0x${code.toString(16)})`);
}

const MAX_UINT256 = (1n << 256n) - 1n;

/** A result of checked uint256 arithmetic: past 2²⁵⁶ − 1 Solidity 0.8 panics. */
export function uint256(value: bigint): bigint {
  if (value > MAX_UINT256) throw panic(0x11);
  return value;
}

/** Whether decoded values fit their types: Solidity's decoder rejects a uintN word above 2ᴺ − 1,
 * which viem's decoder reads whole. */
function fitsTypes(parameters: readonly AbiParameter[], values: readonly unknown[]): boolean {
  return parameters.every((parameter, i) => fitsType(parameter, values[i]));
}

function fitsType(parameter: AbiParameter, value: unknown): boolean {
  const array = /^(.*)\[\d*\]$/.exec(parameter.type);
  if (array) {
    const element = { ...parameter, type: array[1] } as AbiParameter;
    return (value as readonly unknown[]).every((item) => fitsType(element, item));
  }
  if (parameter.type === "tuple") {
    const components = (parameter as { components: readonly AbiParameter[] }).components;
    return components.every((component) =>
      fitsType(component, (value as Record<string, unknown>)[component.name ?? ""]),
    );
  }
  const bits = /^uint(\d+)$/.exec(parameter.type)?.[1];
  return bits === undefined || BigInt(value as bigint | number) < 1n << BigInt(bits);
}

/** A contract as the EVM dispatches to it: receive on empty calldata, then selector, payability, decoding. */
export function contractModel<const abi extends Abi>(spec: ContractSpec<abi>): ContractModel {
  const functions = new Map<string, AbiFunction>();
  for (const item of spec.abi) {
    if (item.type === "function") functions.set(toFunctionSelector(item), item);
  }
  return {
    address: spec.address,
    async call(ctx, input) {
      if (input === "0x" && spec.receive) {
        spec.receive(ctx);
        return "0x";
      }
      const item = functions.get(input.slice(0, 10).toLowerCase());
      if (!item) throw emptyRevert("no function with this selector");
      if (ctx.value > 0n && item.stateMutability !== "payable") {
        throw emptyRevert(`${item.name} is not payable`);
      }
      let args: readonly unknown[];
      try {
        args = item.inputs.length > 0 ? decodeAbiParameters(item.inputs, `0x${input.slice(10)}`) : [];
      } catch {
        throw emptyRevert(`calldata does not decode as ${item.name}'s arguments`);
      }
      if (!fitsTypes(item.inputs, args)) throw emptyRevert(`an argument of ${item.name} is out of range`);
      const result = await spec.run(ctx, { functionName: item.name, args } as FunctionCall<abi>);
      return encodeFunctionResult({
        abi: [item],
        functionName: item.name,
        result,
      } as EncodeFunctionResultParameters);
    },
  };
}

/** Appends a log of `abi`'s event, emitted by `address`: indexed arguments as topics, the rest as data. */
export function emit<const abi extends Abi, name extends ContractEventName<abi>>(
  ctx: CallContext,
  address: Address,
  abi: abi,
  eventName: name,
  args: GetEventArgs<abi, name, { Required: true }>,
): void {
  const topics = encodeEventTopics({ abi, eventName, args } as Parameters<typeof encodeEventTopics>[0]);
  const event = abi.find((item) => item.type === "event" && item.name === eventName);
  const unindexed = event?.type === "event" ? event.inputs.filter((input) => !input.indexed) : [];
  const values = unindexed.map((input) => (args as Record<string, unknown>)[input.name ?? ""]);
  const log: EmittedLog = {
    address,
    topics: topics as EmittedLog["topics"],
    data: encodeAbiParameters(unindexed, values),
  };
  ctx.logs.push(log);
}

/** The context of a call a contract makes: msg.sender is the calling contract, with `value` sent along. */
export function innerCall(ctx: CallContext, sender: Address, value = 0n): CallContext {
  return { ...ctx, sender, value };
}

/** Moves wei between accounts (a value transfer along a call, or a refund). */
export async function moveEther(ctx: CallContext, from: Address, to: Address, amount: bigint): Promise<void> {
  if (amount === 0n) return;
  const { state } = ctx;
  state.setBigInt(stateKey.balance(from), (await state.getBigInt(stateKey.balance(from))) - amount);
  state.setBigInt(stateKey.balance(to), (await state.getBigInt(stateKey.balance(to))) + amount);
}

/** Addresses compared as the EVM does: by value, whatever their spelling. */
export function sameAddress(a: Address, b: Address): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
