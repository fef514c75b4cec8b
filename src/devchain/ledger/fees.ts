/**
 * Gas and fees. There is no EVM to meter, so a transaction's gas is a function of its calldata and
 * of whether it calls a contract: what eth_estimateGas answers is exactly what the transaction then
 * uses, and a wallet that sets the estimate as its limit never runs out.
 */
import type { Hex } from "viem";

/** Base fee of every block: OP mainnet's is a fraction of a gwei. */
export const DEFAULT_BASE_FEE_PER_GAS = 1_000_000n;
/** What eth_maxPriorityFeePerGas suggests. */
export const DEFAULT_PRIORITY_FEE_PER_GAS = 1_000_000n;
/** Each block's gas limit, as OP mainnet's. */
export const BLOCK_GAS_LIMIT = 30_000_000n;

const TRANSACTION_GAS = 21_000n;
/** A call into a modelled contract, whatever it does: more than any of the registries' writes uses. */
const CONTRACT_CALL_GAS = 250_000n;

/** Calldata priced as Ethereum prices it: 4 per zero byte, 16 per other byte. */
function calldataGas(input: Hex): bigint {
  let gas = 0n;
  for (let i = 2; i < input.length; i += 2) gas += input.slice(i, i + 2) === "00" ? 4n : 16n;
  return gas;
}

/** The gas a transaction with `input` uses, calling a contract or not. */
export function gasUsed(input: Hex, callsContract: boolean): bigint {
  return TRANSACTION_GAS + calldataGas(input) + (callsContract ? CONTRACT_CALL_GAS : 0n);
}

/** What a transaction pays per gas in a block: its price, or base fee plus its tip within its cap. */
export function effectiveGasPrice(
  tx: { gasPrice: bigint | null; maxFeePerGas: bigint | null; maxPriorityFeePerGas: bigint | null },
  baseFee: bigint,
): bigint {
  if (tx.maxFeePerGas === null) return tx.gasPrice ?? 0n;
  const tip = tx.maxPriorityFeePerGas ?? 0n;
  return baseFee + tip < tx.maxFeePerGas ? baseFee + tip : tx.maxFeePerGas;
}
