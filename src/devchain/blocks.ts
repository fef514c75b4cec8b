/**
 * Blocks: a genesis block, then one block each time pending transactions are mined, holding them in
 * the order they were submitted with the event each one emits.
 */
import { randomBytes } from "node:crypto";
import { encodePacked, keccak256 } from "viem";
import { OP_MAINNET_CHAIN_ID } from "../protocol/contracts.js";
import { toHex } from "../protocol/hex.js";
import type { Hex } from "../interfaces/chain.js";
import { insertEvent, type MineTransaction } from "./events.js";
import { mineRegister } from "./idRegistry.js";
import { mineKeyAdd, mineKeyRemove } from "./keyRegistry.js";
import { mineRent } from "./storageRegistry.js";
import type { DevchainDb, TransactionKind } from "./tables.js";
import { markTransactionMined, pendingTransactions } from "./transactions.js";

export interface BlockInfo {
  number: number;
  hash: Hex;
  /** Unix seconds. */
  timestamp: number;
}

interface BlockRow {
  number: number;
  hash: Uint8Array;
  timestamp: number;
}

const MINE: Record<TransactionKind, MineTransaction> = {
  register: mineRegister,
  signer_add: mineKeyAdd,
  signer_remove: mineKeyRemove,
  storage_rent: mineRent,
};

async function latestBlockRow(db: DevchainDb): Promise<BlockRow | undefined> {
  const row = await db
    .selectFrom("chain_blocks")
    .select(["number", "hash", "timestamp"])
    .orderBy("number", "desc")
    .limit(1)
    .executeTakeFirst();
  return (
    row && { number: Number(row.number), hash: new Uint8Array(row.hash), timestamp: Number(row.timestamp) }
  );
}

export async function latestBlock(db: DevchainDb): Promise<BlockInfo> {
  const block = await latestBlockRow(db);
  if (!block) throw new Error("the devchain has no genesis block; start() was not called");
  return { number: block.number, hash: toHex(block.hash), timestamp: block.timestamp };
}

async function insertBlock(trx: DevchainDb, block: BlockRow & { parentHash: Uint8Array }): Promise<void> {
  await trx
    .insertInto("chain_blocks")
    .values({
      number: block.number,
      hash: block.hash,
      parent_hash: block.parentHash,
      timestamp: block.timestamp,
    })
    .execute();
}

/** The genesis block's hash, making the genesis block of a fresh chain first. */
export async function genesis(trx: DevchainDb, nowSeconds: number): Promise<Uint8Array> {
  const existing = await trx
    .selectFrom("chain_blocks")
    .select("hash")
    .where("number", "=", 0)
    .executeTakeFirst();
  if (existing) return new Uint8Array(existing.hash);
  // A random genesis hash makes every hash of a fresh devchain differ from those of any other.
  const hash = keccak256(randomBytes(32), "bytes");
  await insertBlock(trx, { number: 0, hash, parentHash: new Uint8Array(32), timestamp: nowSeconds });
  return hash;
}

function blockHash(number: number, parentHash: Uint8Array, timestamp: number): Uint8Array {
  return keccak256(
    encodePacked(
      ["uint32", "uint64", "bytes32", "uint64"],
      [OP_MAINNET_CHAIN_ID, BigInt(number), toHex(parentHash), BigInt(timestamp)],
    ),
    "bytes",
  );
}

/** Mines the pending transactions into one block; returns its number, or undefined when none were pending. */
export async function mineBlock(trx: DevchainDb, nowSeconds: number): Promise<number | undefined> {
  const pending = await pendingTransactions(trx);
  if (pending.length === 0) return undefined;
  const parent = await latestBlockRow(trx);
  if (!parent) throw new Error("the devchain has no genesis block");
  const number = parent.number + 1;
  const timestamp = Math.max(parent.timestamp, nowSeconds);
  const hash = blockHash(number, parent.hash, timestamp);
  await insertBlock(trx, { number, hash, parentHash: parent.hash, timestamp });
  for (const [txIndex, tx] of pending.entries()) {
    await markTransactionMined(trx, tx.seq, number, txIndex);
    const body = await MINE[tx.kind](trx, tx.seq, { number, timestamp });
    // Each transaction here emits exactly one log, so its log index equals its transaction index.
    const event = {
      ...body,
      chainId: OP_MAINNET_CHAIN_ID,
      blockNumber: number,
      blockHash: hash,
      blockTimestamp: timestamp,
      transactionHash: tx.hash,
      logIndex: txIndex,
      fid: tx.fid,
      txIndex,
    };
    await insertEvent(trx, { blockNumber: number, logIndex: txIndex, txSeq: tx.seq, event });
  }
  return number;
}
