/**
 * Running a transaction on the state: the sender's nonce and fee, the value moved, then the call
 * into the modelled contract (src/devchain/contracts/) on an overlay of its own, kept only when the
 * call does not revert. A reverted transaction is still mined: it pays its fee and uses its nonce.
 */
import type { Address, Hex } from "viem";
import { callContract, isContractAddress } from "../contracts/call.js";
import { runOperatorAction } from "./operatorActions.js";
import {
  type CallContext,
  type ChainPrices,
  type EmittedLog,
  Revert,
  type StateOverlay,
  stateKey,
} from "../contracts/state.js";
import { effectiveGasPrice, gasUsed } from "./fees.js";
import type { StoredTransaction } from "./txStore.js";

export interface BlockEnv {
  chainId: number;
  prices: ChainPrices;
  number: bigint;
  timestamp: bigint;
  baseFee: bigint;
}

export interface Execution {
  status: 0 | 1;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  /** The call's return data, or its revert data. */
  output: Hex;
  logs: EmittedLog[];
}

/** Runs `tx` on `state` (the block's overlay), which keeps its effects. */
export async function executeTransaction(
  state: StateOverlay,
  tx: StoredTransaction,
  env: BlockEnv,
): Promise<Execution> {
  if (tx.operator !== null) {
    const call = state.child();
    const logs: EmittedLog[] = [];
    try {
      await runOperatorAction(context(call, tx.sender, tx.sender, 0n, env, logs), tx.operator);
      state.commit(call);
      return { status: 1, gasUsed: 0n, effectiveGasPrice: 0n, output: "0x", logs };
    } catch (error) {
      if (!(error instanceof Revert)) throw error;
      return { status: 0, gasUsed: 0n, effectiveGasPrice: 0n, output: error.data, logs: [] };
    }
  }
  const price = effectiveGasPrice(tx, env.baseFee);
  const used = gasUsed(tx.input, tx.recipient !== null && isContractAddress(tx.recipient));
  state.setBigInt(stateKey.transactionCount(tx.sender), BigInt(tx.nonce) + 1n);
  await addBalance(state, tx.sender, -(used * price));
  const outcome = await runCall(
    state,
    { from: tx.sender, to: tx.recipient!, value: tx.value, input: tx.input },
    env,
  );
  return { ...outcome, gasUsed: used, effectiveGasPrice: price };
}

export interface CallRequest {
  from: Address;
  to: Address;
  value: bigint;
  input: Hex;
}

/**
 * The value moved and the contract called, on an overlay of `state` that joins it only when the
 * call succeeds (eth_call and eth_estimateGas run this on a throwaway state).
 */
export async function runCall(
  state: StateOverlay,
  request: CallRequest,
  env: BlockEnv,
): Promise<{ status: 0 | 1; output: Hex; logs: EmittedLog[] }> {
  const call = state.child();
  const logs: EmittedLog[] = [];
  try {
    await addBalance(call, request.from, -request.value);
    await addBalance(call, request.to, request.value);
    const output = isContractAddress(request.to)
      ? await callContract(
          context(call, request.from, request.from, request.value, env, logs),
          request.to,
          request.input,
        )
      : "0x";
    state.commit(call);
    return { status: 1, output, logs };
  } catch (error) {
    if (!(error instanceof Revert)) throw error;
    return { status: 0, output: error.data, logs: [] };
  }
}

function context(
  state: StateOverlay,
  origin: Address,
  sender: Address,
  value: bigint,
  env: BlockEnv,
  logs: EmittedLog[],
): CallContext {
  return {
    state,
    origin,
    sender,
    value,
    block: { number: env.number, timestamp: env.timestamp },
    chainId: env.chainId,
    logs,
    prices: env.prices,
  };
}

async function addBalance(state: StateOverlay, address: Address, amount: bigint): Promise<void> {
  if (amount === 0n) return;
  const key = stateKey.balance(address);
  state.setBigInt(key, (await state.getBigInt(key)) + amount);
}
