/**
 * Transactions: every write is one, recorded with its pending state rows when submitted and given
 * its block and index when mined.
 */
import { encodePacked, hexToBytes, keccak256 } from "viem";
import { toHex } from "../protocol/hex.js";
import type { Hex, TransactionStatus } from "../interfaces/chain.js";
import type { DevchainDb, TransactionKind } from "./tables.js";

export interface TransactionRow {
  seq: number;
  hash: Uint8Array;
  kind: TransactionKind;
  fid: number;
  blockNumber: number | null;
}

const TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;

export function isTransactionHash(value: unknown): value is Hex {
  return typeof value === "string" && TRANSACTION_HASH.test(value);
}

/** Hashes start from the genesis hash, which is random, so they never repeat across devchains. */
function transactionHash(genesis: Uint8Array, seq: number): Uint8Array {
  return keccak256(encodePacked(["bytes32", "uint64"], [toHex(genesis), BigInt(seq)]), "bytes");
}

/**
 * Records a transaction of `kind` whose rule checks and pending state rows `apply` makes, given the
 * transaction's sequence number; `apply` returns the fid it concerns. Returns the transaction's hash.
 */
export async function recordTransaction(
  trx: DevchainDb,
  genesis: Uint8Array,
  kind: TransactionKind,
  apply: (trx: DevchainDb, seq: number) => Promise<number>,
): Promise<Uint8Array> {
  const last = await trx
    .selectFrom("chain_transactions")
    .select((eb) => eb.fn.max("seq").as("seq"))
    .executeTakeFirst();
  const seq = Number(last?.seq ?? 0) + 1;
  const hash = transactionHash(genesis, seq);
  const fid = await apply(trx, seq);
  await trx
    .insertInto("chain_transactions")
    .values({ seq, hash, kind, fid, block_number: null, tx_index: null })
    .execute();
  return hash;
}

const transactionColumns = ["seq", "hash", "kind", "fid", "block_number"] as const;

function toTransactionRow(row: {
  seq: number;
  hash: Uint8Array;
  kind: TransactionKind;
  fid: number;
  block_number: number | null;
}): TransactionRow {
  return {
    seq: Number(row.seq),
    hash: new Uint8Array(row.hash),
    kind: row.kind,
    fid: Number(row.fid),
    blockNumber: row.block_number === null ? null : Number(row.block_number),
  };
}

export async function transactionByHash(
  db: DevchainDb,
  hash: Uint8Array,
): Promise<TransactionRow | undefined> {
  const row = await db
    .selectFrom("chain_transactions")
    .select(transactionColumns)
    .where("hash", "=", hash)
    .executeTakeFirst();
  return row && toTransactionRow(row);
}

export async function transactionStatus(db: DevchainDb, hash: Hex): Promise<TransactionStatus | undefined> {
  if (!isTransactionHash(hash)) return undefined;
  const tx = await transactionByHash(db, hexToBytes(hash));
  if (!tx) return undefined;
  return tx.blockNumber === null
    ? { transactionHash: toHex(tx.hash), status: "pending" }
    : { transactionHash: toHex(tx.hash), status: "mined", blockNumber: tx.blockNumber };
}

/** Transactions not yet in a block, in the order they were submitted. */
export async function pendingTransactions(trx: DevchainDb): Promise<TransactionRow[]> {
  const rows = await trx
    .selectFrom("chain_transactions")
    .select(transactionColumns)
    .where("block_number", "is", null)
    .orderBy("seq")
    .execute();
  return rows.map(toTransactionRow);
}

export async function countPendingTransactions(db: DevchainDb): Promise<number> {
  const row = await db
    .selectFrom("chain_transactions")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("block_number", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function markTransactionMined(
  trx: DevchainDb,
  seq: number,
  blockNumber: number,
  txIndex: number,
): Promise<void> {
  await trx
    .updateTable("chain_transactions")
    .set({ block_number: blockNumber, tx_index: txIndex })
    .where("seq", "=", seq)
    .execute();
}
