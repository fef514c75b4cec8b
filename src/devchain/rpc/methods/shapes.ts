/**
 * The JSON a node answers for blocks, transactions, receipts and logs (docs/reference/contracts.md
 * §12): every field clients read, quantities as hex without leading zeros.
 */
import { type Hex, parseTransaction, type TransactionSerialized } from "viem";
import type { StoredBlock, StoredTransaction } from "../../ledger/index.js";
import { toHex } from "../../../protocol/hex.js";
import { logsBloom } from "../../ledger/bloom.js";
import { BLOCK_GAS_LIMIT } from "../../ledger/fees.js";
import { encodeQuantity } from "../params.js";

const ZERO32: Hex = `0x${"00".repeat(32)}`;
/** keccak256 of the RLP of an empty list: the uncles hash of a block without uncles. */
const EMPTY_UNCLES: Hex = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";
const NO_MINER: Hex = "0x4200000000000000000000000000000000000011";

export function blockJson(
  block: StoredBlock,
  transactions: readonly (Hex | object)[],
): Record<string, unknown> {
  return {
    number: encodeQuantity(block.number),
    hash: block.hash,
    parentHash: block.parentHash,
    nonce: "0x0000000000000000",
    sha3Uncles: EMPTY_UNCLES,
    logsBloom: block.logsBloom,
    transactionsRoot: ZERO32,
    stateRoot: ZERO32,
    receiptsRoot: ZERO32,
    miner: NO_MINER,
    mixHash: ZERO32,
    difficulty: "0x0",
    totalDifficulty: "0x0",
    extraData: "0x",
    size: encodeQuantity(512 + 128 * transactions.length),
    gasLimit: encodeQuantity(BLOCK_GAS_LIMIT),
    gasUsed: encodeQuantity(block.gasUsed),
    timestamp: encodeQuantity(block.timestamp),
    baseFeePerGas: encodeQuantity(block.baseFeePerGas),
    uncles: [],
    transactions,
  };
}

/** The signature of a signed transaction; an operator write has none (zeros). */
function signatureOf(tx: StoredTransaction) {
  if (tx.raw === null) return { v: "0x0", r: "0x0", s: "0x0", yParity: "0x0" };
  const parsed = parseTransaction(tx.raw as TransactionSerialized);
  const yParity = parsed.yParity ?? (parsed.v !== undefined ? Number(parsed.v % 2n === 0n ? 1 : 0) : 0);
  const v = parsed.v ?? BigInt(yParity);
  return {
    v: encodeQuantity(v),
    r: encodeQuantity(BigInt(parsed.r ?? "0x0")),
    s: encodeQuantity(BigInt(parsed.s ?? "0x0")),
    yParity: encodeQuantity(yParity),
  };
}

export function transactionJson(
  tx: StoredTransaction,
  block: StoredBlock | undefined,
  chainId: number,
): Record<string, unknown> {
  const mined = block !== undefined && tx.txIndex !== null;
  const gasPrice = tx.receipt?.effectiveGasPrice ?? tx.gasPrice ?? tx.maxFeePerGas ?? 0n;
  const json: Record<string, unknown> = {
    hash: tx.hash,
    nonce: encodeQuantity(tx.nonce),
    blockHash: mined ? block.hash : null,
    blockNumber: mined ? encodeQuantity(block.number) : null,
    transactionIndex: mined ? encodeQuantity(tx.txIndex!) : null,
    from: tx.sender,
    to: tx.recipient,
    value: encodeQuantity(tx.value),
    gas: encodeQuantity(tx.gas),
    gasPrice: encodeQuantity(gasPrice),
    input: tx.input,
    type: encodeQuantity(tx.type),
    chainId: encodeQuantity(chainId),
    ...signatureOf(tx),
  };
  if (tx.type >= 1) json.accessList = [];
  if (tx.type === 2) {
    json.maxFeePerGas = encodeQuantity(tx.maxFeePerGas ?? 0n);
    json.maxPriorityFeePerGas = encodeQuantity(tx.maxPriorityFeePerGas ?? 0n);
  }
  return json;
}

export function receiptJson(
  tx: StoredTransaction,
  block: StoredBlock,
  /** Its logs' JSON, as stored when its block was mined. */
  logs: readonly string[],
  cumulativeGasUsed: bigint,
): Record<string, unknown> {
  const receipt = tx.receipt!;
  const parsed = logs.map((json) => JSON.parse(json) as { address: Hex; topics: Hex[] });
  return {
    transactionHash: tx.hash,
    transactionIndex: encodeQuantity(tx.txIndex!),
    blockHash: block.hash,
    blockNumber: encodeQuantity(block.number),
    from: tx.sender,
    to: tx.recipient,
    cumulativeGasUsed: encodeQuantity(cumulativeGasUsed),
    gasUsed: encodeQuantity(receipt.gasUsed),
    effectiveGasPrice: encodeQuantity(receipt.effectiveGasPrice),
    contractAddress: null,
    logs: parsed,
    logsBloom: toHex(logsBloom(parsed)),
    status: encodeQuantity(receipt.status),
    type: encodeQuantity(tx.type),
  };
}
