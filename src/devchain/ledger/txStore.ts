/** Transactions and their receipts: recorded when sent, completed when mined. */
import { type Address, getAddress, type Hex } from "viem";
import { toHex } from "../../protocol/hex.js";
import type { DevchainDb, DevchainTables } from "../tables.js";

/** What an operator write of the REST routes does (src/devchain/contracts/operator.ts runs it). */
export type OperatorAction =
  | { action: "register"; to: Address; recovery: Address }
  | { action: "addKey"; fid: number; keyType: number; key: Hex; metadataType: number; metadata: Hex }
  | { action: "removeKey"; fid: number; key: Hex }
  | { action: "rent"; fid: number; units: number }
  | { action: "setBalance"; address: Address; balance: string };

export interface StoredTransaction {
  seq: number;
  hash: Hex;
  sender: Address;
  recipient: Address | null;
  nonce: number;
  value: bigint;
  input: Hex;
  /** 0 legacy, 1 EIP-2930, 2 EIP-1559. */
  type: number;
  gas: bigint;
  gasPrice: bigint | null;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  raw: Hex | null;
  operator: OperatorAction | null;
  blockNumber: number | null;
  txIndex: number | null;
  receipt?: { status: 0 | 1; gasUsed: bigint; effectiveGasPrice: bigint; output: Hex };
}

export type NewTransaction = Omit<StoredTransaction, "seq" | "blockNumber" | "txIndex" | "receipt">;

type Row = DevchainTables["chain_txs"];

const bytes = (hex: Hex) => Buffer.from(hex.slice(2), "hex");

/** The sequence number the next transaction recorded gets. */
export async function nextSeq(trx: DevchainDb): Promise<number> {
  const last = await trx
    .selectFrom("chain_txs")
    .select((eb) => eb.fn.max("seq").as("seq"))
    .executeTakeFirst();
  return Number(last?.seq ?? 0) + 1;
}

/** Records `tx` as transaction `seq` (nextSeq's, in the same database transaction). */
export async function insertTransaction(trx: DevchainDb, seq: number, tx: NewTransaction): Promise<void> {
  await trx
    .insertInto("chain_txs")
    .values({
      seq,
      hash: bytes(tx.hash),
      sender: tx.sender.toLowerCase(),
      recipient: tx.recipient?.toLowerCase() ?? null,
      nonce: tx.nonce,
      value: tx.value.toString(),
      input: bytes(tx.input),
      type: tx.type,
      gas: Number(tx.gas),
      gas_price: tx.gasPrice?.toString() ?? null,
      max_fee: tx.maxFeePerGas?.toString() ?? null,
      max_priority_fee: tx.maxPriorityFeePerGas?.toString() ?? null,
      raw: tx.raw === null ? null : bytes(tx.raw),
      operator: tx.operator === null ? null : JSON.stringify(tx.operator),
      block_number: null,
      tx_index: null,
      status: null,
      gas_used: null,
      effective_gas_price: null,
      output: null,
    })
    .execute();
}

export async function completeTransaction(
  trx: DevchainDb,
  seq: number,
  mined: {
    blockNumber: number;
    txIndex: number;
    status: 0 | 1;
    gasUsed: bigint;
    effectiveGasPrice: bigint;
    output: Hex;
  },
): Promise<void> {
  await trx
    .updateTable("chain_txs")
    .set({
      block_number: mined.blockNumber,
      tx_index: mined.txIndex,
      status: mined.status,
      gas_used: Number(mined.gasUsed),
      effective_gas_price: mined.effectiveGasPrice.toString(),
      output: bytes(mined.output),
    })
    .where("seq", "=", seq)
    .execute();
}

export async function transactionByHash(db: DevchainDb, hash: Hex): Promise<StoredTransaction | undefined> {
  const row = await db.selectFrom("chain_txs").selectAll().where("hash", "=", bytes(hash)).executeTakeFirst();
  return row && storedTransaction(row);
}

export async function transactionsOfBlock(db: DevchainDb, blockNumber: number): Promise<StoredTransaction[]> {
  const rows = await db
    .selectFrom("chain_txs")
    .selectAll()
    .where("block_number", "=", blockNumber)
    .orderBy("tx_index")
    .execute();
  return rows.map(storedTransaction);
}

/** Transactions not yet in a block, in the order they were sent. */
export async function pendingTransactions(db: DevchainDb): Promise<StoredTransaction[]> {
  const rows = await db
    .selectFrom("chain_txs")
    .selectAll()
    .where("block_number", "is", null)
    .orderBy("seq")
    .execute();
  return rows.map(storedTransaction);
}

export async function countPendingTransactions(db: DevchainDb, sender?: Address): Promise<number> {
  let query = db
    .selectFrom("chain_txs")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("block_number", "is", null);
  if (sender !== undefined)
    query = query.where("sender", "=", sender.toLowerCase()).where("operator", "is", null);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

function storedTransaction(row: Row): StoredTransaction {
  const hex = (value: Uint8Array) => toHex(new Uint8Array(value));
  const big = (value: string | null) => (value === null ? null : BigInt(value));
  return {
    seq: Number(row.seq),
    hash: hex(row.hash),
    sender: getAddress(row.sender),
    recipient: row.recipient === null ? null : getAddress(row.recipient),
    nonce: Number(row.nonce),
    value: BigInt(row.value),
    input: hex(row.input),
    type: Number(row.type),
    gas: BigInt(row.gas),
    gasPrice: big(row.gas_price),
    maxFeePerGas: big(row.max_fee),
    maxPriorityFeePerGas: big(row.max_priority_fee),
    raw: row.raw === null ? null : hex(row.raw),
    operator: row.operator === null ? null : (JSON.parse(row.operator) as OperatorAction),
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    txIndex: row.tx_index === null ? null : Number(row.tx_index),
    receipt:
      row.status === null
        ? undefined
        : {
            status: Number(row.status) === 1 ? 1 : 0,
            gasUsed: BigInt(row.gas_used ?? 0),
            effectiveGasPrice: BigInt(row.effective_gas_price ?? "0"),
            output: row.output === null ? "0x" : hex(row.output),
          },
  };
}
