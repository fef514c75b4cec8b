/**
 * A chain for the contract models' tests: state in a Map (a real StateReader), each transaction on
 * a StateOverlay kept only when it succeeds, the value moved to the callee first, as the ledger does.
 * Calls are encoded and results, reverts and logs decoded with @farcaster/core's ABIs, and signed
 * with its ViemLocalEip712Signer, so the models are checked against what real clients send.
 */
import assert from "node:assert/strict";
import * as core from "@farcaster/core";
import {
  bytesToHex,
  decodeErrorResult,
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  keccak256,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { CONTRACT_ADDRESSES } from "../../../src/protocol/registryAddresses.js";
import { callContract } from "../../../src/devchain/contracts/call.js";
import {
  Revert,
  StateOverlay,
  stateKey,
  type CallContext,
  type ChainPrices,
  type EmittedLog,
  type StateReader,
} from "../../../src/devchain/contracts/state.js";

export const ADDRESSES = CONTRACT_ADDRESSES;

/** $7 at 3,000 USD/ETH (docs/reference/contracts.md §7). */
export const UNIT_PRICE = 2_333_333_333_333_334n;
export const ETHER = 10n ** 18n;

/** Which of core's ABIs describes each contract. */
export const ABIS = {
  idRegistry: core.idRegistryABI,
  idGateway: core.idGatewayABI,
  keyRegistry: core.keyRegistryABI,
  keyGateway: core.keyGatewayABI,
  storageRegistry: core.storageRegistryABI,
  bundler: core.bundlerABI,
  signedKeyRequestValidator: core.signedKeyRequestValidatorABI,
} as const;

export type ContractName = keyof typeof ABIS;

class MapState implements StateReader {
  readonly values = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
}

/** A deterministic account with core's EIP-712 signer. */
export function account(name: string): {
  address: Address;
  account: PrivateKeyAccount;
  signer: core.ViemLocalEip712Signer;
} {
  const local = privateKeyToAccount(keccak256(toHex(name)));
  return { address: local.address, account: local, signer: new core.ViemLocalEip712Signer(local) };
}

/** Unwraps one of core's `HubAsyncResult<Uint8Array>` signatures as hex. */
export async function signed(result: ReturnType<core.ViemLocalEip712Signer["signRegister"]>): Promise<Hex> {
  const value = await result;
  assert.ok(value.isOk(), "the signer failed");
  return bytesToHex(value.value);
}

export interface Call {
  from: Address;
  to: ContractName;
  functionName: string;
  args?: readonly unknown[];
  value?: bigint;
}

export interface Receipt {
  result: unknown;
  logs: EmittedLog[];
}

export class TestChain {
  readonly state = new MapState();
  timestamp = 1_700_000_000n;
  chainId = 10;
  prices: ChainPrices = { storageUnitPrice: UNIT_PRICE, maxStorageUnits: 200_000n, maxKeysPerFid: 1000n };

  fund(address: Address, wei: bigint): void {
    this.state.values.set(stateKey.balance(address), wei.toString());
  }

  balance(address: Address): bigint {
    return BigInt(this.state.values.get(stateKey.balance(address)) ?? "0");
  }

  context(overlay: StateOverlay, from: Address, value: bigint): CallContext {
    return {
      state: overlay,
      origin: from,
      sender: from,
      value,
      block: { number: 1n, timestamp: this.timestamp },
      chainId: this.chainId,
      logs: [],
      prices: this.prices,
    };
  }

  /** A transaction of raw calldata: the value moved to `to`, the call run, its writes kept unless it
   * reverts (or, with `keep` false, dropped as eth_call drops them). */
  async sendRaw(
    from: Address,
    to: Address,
    data: Hex,
    value = 0n,
    keep = true,
  ): Promise<{ output: Hex; logs: EmittedLog[] }> {
    const overlay = new StateOverlay(this.state);
    overlay.setBigInt(stateKey.balance(from), (await overlay.getBigInt(stateKey.balance(from))) - value);
    overlay.setBigInt(stateKey.balance(to), (await overlay.getBigInt(stateKey.balance(to))) + value);
    const ctx = this.context(overlay, from, value);
    const output = await callContract(ctx, to, data);
    if (keep) for (const [key, written] of overlay.writes) this.state.values.set(key, written);
    return { output, logs: ctx.logs };
  }

  /** A transaction encoded with core's ABI; its result decoded with it. */
  async send(call: Call): Promise<Receipt> {
    const abi = ABIS[call.to] as Abi;
    const data = encodeFunctionData({ abi, functionName: call.functionName, args: call.args ?? [] });
    const { output, logs } = await this.sendRaw(call.from, ADDRESSES[call.to], data, call.value ?? 0n);
    return { result: decodeResult(abi, call.functionName, call.args ?? [], output), logs };
  }

  /** A write run as eth_call runs it: its result, its writes dropped. */
  async simulate(call: Call): Promise<unknown> {
    const abi = ABIS[call.to] as Abi;
    const data = encodeFunctionData({ abi, functionName: call.functionName, args: call.args ?? [] });
    const { output } = await this.sendRaw(call.from, ADDRESSES[call.to], data, call.value ?? 0n, false);
    return decodeResult(abi, call.functionName, call.args ?? [], output);
  }

  /** An eth_call: runs on an overlay that is dropped; asserts it wrote nothing and logged nothing. */
  async read(
    to: ContractName,
    functionName: string,
    args: readonly unknown[] = [],
    from?: Address,
  ): Promise<unknown> {
    const abi = ABIS[to] as Abi;
    const overlay = new StateOverlay(this.state);
    const ctx = this.context(overlay, from ?? "0x0000000000000000000000000000000000000001", 0n);
    const output = await callContract(ctx, ADDRESSES[to], encodeFunctionData({ abi, functionName, args }));
    assert.deepEqual([...overlay.writes.keys()], [], `${functionName} wrote state`);
    assert.deepEqual(ctx.logs, [], `${functionName} logged`);
    return decodeResult(abi, functionName, args, output);
  }

  /** Runs an operator write as a transaction of `from`. */
  async operate<T>(
    from: Address,
    write: (ctx: CallContext) => Promise<T>,
  ): Promise<{ result: T; logs: EmittedLog[] }> {
    const overlay = new StateOverlay(this.state);
    const ctx = this.context(overlay, from, 0n);
    const result = await write(ctx);
    for (const [key, written] of overlay.writes) this.state.values.set(key, written);
    return { result, logs: ctx.logs };
  }

  /** A deadline an hour ahead of the block time. */
  deadline(): bigint {
    return this.timestamp + 3600n;
  }
}

function decodeResult(abi: Abi, functionName: string, args: readonly unknown[], data: Hex): unknown {
  return decodeFunctionResult({ abi, functionName, args, data } as Parameters<
    typeof decodeFunctionResult
  >[0]);
}

/** The revert a promise ends in, decoded with `to`'s core ABI: its error name and arguments. */
export async function revertOf(
  promise: Promise<unknown>,
  to: ContractName,
): Promise<{ errorName: string; args: readonly unknown[] }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Revert, `expected a Revert, got ${String(error)}`);
    const decoded = decodeErrorResult({ abi: ABIS[to] as Abi, data: error.data });
    return { errorName: decoded.errorName, args: decoded.args ?? [] };
  }
  assert.fail("the call did not revert");
}

/** Asserts a revert with no data (Solidity's for an unknown selector, value to a non-payable
 * function, or calldata that does not decode). */
export async function assertEmptyRevert(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (error) => error instanceof Revert && error.data === "0x");
}

/** The logs decoded with the core ABI of the contract at each log's address, in order. */
export function decodedLogs(
  logs: EmittedLog[],
): { contract: ContractName; eventName: string; args: unknown }[] {
  return logs.map((log) => {
    const contract = (Object.keys(ADDRESSES) as ContractName[]).find(
      (name) => ADDRESSES[name].toLowerCase() === log.address.toLowerCase(),
    );
    assert.ok(contract, `a log of ${log.address}`);
    const { eventName, args } = decodeEventLog({
      abi: ABIS[contract] as Abi,
      topics: log.topics,
      data: log.data,
      strict: true,
    }) as { eventName: string; args: unknown };
    return { contract, eventName, args };
  });
}

/** A 32-byte key whose bytes are all `n`. */
export function key(n: number): Hex {
  return bytesToHex(new Uint8Array(32).fill(n));
}
