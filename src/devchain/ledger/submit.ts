/**
 * eth_sendRawTransaction: a signed transaction checked as a node checks it before it enters the
 * pool (its type, chain id, sender, nonce, gas and funds), refused with the words geth uses.
 */
import {
  type Address,
  type Hex,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
} from "viem";
import { isContractAddress } from "../contracts/call.js";
import { RpcError } from "../rpc/errors.js";
import type { DevchainDb } from "../tables.js";
import { latestStoredBlock } from "./blockStore.js";
import { gasUsed } from "./fees.js";
import { stateAt } from "./stateStore.js";
import { stateKey } from "../contracts/state.js";
import {
  countPendingTransactions,
  insertTransaction,
  nextSeq,
  type NewTransaction,
  transactionByHash,
} from "./txStore.js";

const TYPES: Record<string, number> = { legacy: 0, eip2930: 1, eip1559: 2 };

/** The next nonce of `address`: mined transactions, then those pending. */
export async function nextNonce(db: DevchainDb, address: Address, includePending: boolean): Promise<bigint> {
  const latest = await latestStoredBlock(db);
  const mined = BigInt((await stateAt(db, latest.number).get(stateKey.transactionCount(address))) ?? "0");
  return includePending ? mined + BigInt(await countPendingTransactions(db, address)) : mined;
}

/** Checks a signed transaction and records it as pending; returns its hash. */
export async function submitRawTransaction(db: DevchainDb, raw: Hex, chainId: number): Promise<Hex> {
  let tx: ReturnType<typeof parseTransaction>;
  let sender: Address;
  try {
    tx = parseTransaction(raw as TransactionSerialized);
    sender = await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized });
  } catch (error) {
    throw RpcError.invalidParams(
      `the transaction could not be decoded: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  const type = TYPES[tx.type ?? "legacy"];
  if (type === undefined) throw RpcError.serverError("transaction type not supported");
  if (tx.chainId === undefined)
    throw RpcError.serverError("only replay-protected (EIP-155) transactions allowed over RPC");
  if (tx.chainId !== chainId)
    throw RpcError.serverError(
      `invalid chain id: the devchain is chain ${chainId}, the transaction is for chain ${tx.chainId}`,
    );
  if (tx.to === undefined || tx.to === null)
    throw RpcError.serverError("contract creation is not supported: the devchain models the registries only");
  const hash = keccak256(raw);
  if (await transactionByHash(db, hash)) throw RpcError.serverError("already known");

  const expected = await nextNonce(db, sender, true);
  const nonce = BigInt(tx.nonce ?? 0);
  if (nonce < expected)
    throw RpcError.serverError(`nonce too low: next nonce ${expected}, tx nonce ${nonce}`);
  if (nonce > expected)
    throw RpcError.serverError(
      `nonce too high: next nonce ${expected}, tx nonce ${nonce} (the devchain keeps no queue of future transactions)`,
    );

  const input = tx.data ?? "0x";
  const gas = tx.gas ?? 0n;
  const needed = gasUsed(input, isContractAddress(tx.to));
  if (gas < needed) throw RpcError.serverError(`intrinsic gas too low: gas ${gas}, minimum needed ${needed}`);
  const latest = await latestStoredBlock(db);
  const maxPrice = tx.maxFeePerGas ?? tx.gasPrice ?? 0n;
  if (maxPrice < latest.baseFeePerGas)
    throw RpcError.serverError(
      `max fee per gas less than block base fee: address ${sender}, maxFeePerGas: ${maxPrice}, baseFee: ${latest.baseFeePerGas}`,
    );
  const value = tx.value ?? 0n;
  const balance = BigInt((await stateAt(db, latest.number).get(stateKey.balance(sender))) ?? "0");
  const cost = value + gas * maxPrice;
  if (balance < cost)
    throw RpcError.serverError(
      `insufficient funds for gas * price + value: address ${sender} have ${balance} want ${cost}`,
    );

  const record: NewTransaction = {
    hash,
    sender,
    recipient: tx.to,
    nonce: Number(nonce),
    value,
    input,
    type,
    gas,
    gasPrice: tx.gasPrice ?? null,
    maxFeePerGas: tx.maxFeePerGas ?? null,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? null,
    raw,
    operator: null,
  };
  await insertTransaction(db, await nextSeq(db), record);
  return hash;
}
