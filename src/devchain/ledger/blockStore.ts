/** Blocks: the genesis block, then one per mining round, each with its base fee and the gas it used. */
import { randomBytes } from "node:crypto";
import { encodePacked, type Hex, keccak256 } from "viem";
import { toHex } from "../../protocol/hex.js";
import { builderOf, type QuerySource, runCompiled } from "../../storage/index.js";
import { logsBloom } from "./bloom.js";
import type { DevchainDb, DevchainTables } from "../tables.js";

export interface StoredBlock {
  number: number;
  hash: Hex;
  parentHash: Hex;
  /** Unix seconds. */
  timestamp: number;
  baseFeePerGas: bigint;
  gasUsed: bigint;
  /** The bloom of every log the block's transactions emitted (bloom.ts). */
  logsBloom: Hex;
}

type Row = {
  number: number;
  hash: Uint8Array;
  parent_hash: Uint8Array;
  timestamp: number;
  base_fee_per_gas: string;
  gas_used: number;
  logs_bloom: Uint8Array;
};

function storedBlock(row: Row): StoredBlock {
  return {
    number: Number(row.number),
    hash: toHex(new Uint8Array(row.hash)),
    parentHash: toHex(new Uint8Array(row.parent_hash)),
    timestamp: Number(row.timestamp),
    baseFeePerGas: BigInt(row.base_fee_per_gas),
    gasUsed: BigInt(row.gas_used),
    logsBloom: toHex(new Uint8Array(row.logs_bloom)),
  };
}

const COLUMNS = [
  "number",
  "hash",
  "parent_hash",
  "timestamp",
  "base_fee_per_gas",
  "gas_used",
  "logs_bloom",
] as const;

// Compiled once (src/storage/compiled.ts): every JSON-RPC read resolves its block with one of these.

export async function latestStoredBlock(db: DevchainDb): Promise<StoredBlock> {
  const [row] = await runCompiled(
    db,
    "devchain latest block",
    () => db.selectFrom("chain_blocks").select(COLUMNS).orderBy("number", "desc").limit(1),
    [1],
  );
  if (!row) throw new Error("the devchain has no genesis block; start() was not called");
  return storedBlock(row);
}

/** The latest block's number: a read of the index alone, for callers that keep blocks they decoded. */
export async function latestBlockNumber(source: QuerySource<DevchainTables>): Promise<number> {
  const [row] = await runCompiled(
    source,
    "devchain latest block number",
    () => builderOf(source).selectFrom("chain_blocks").select("number").orderBy("number", "desc").limit(1),
    [1],
  );
  if (!row) throw new Error("the devchain has no genesis block; start() was not called");
  return row.number;
}

export async function blockByNumber(
  source: QuerySource<DevchainTables>,
  number: number,
): Promise<StoredBlock | undefined> {
  const [row] = await runCompiled(
    source,
    "devchain block by number",
    () => builderOf(source).selectFrom("chain_blocks").select(COLUMNS).where("number", "=", number),
    [number],
  );
  return row && storedBlock(row);
}

export async function blockByHash(db: DevchainDb, hash: Hex): Promise<StoredBlock | undefined> {
  const row = await db
    .selectFrom("chain_blocks")
    .select(COLUMNS)
    .where("hash", "=", Buffer.from(hash.slice(2), "hex"))
    .executeTakeFirst();
  return row && storedBlock(row);
}

/** The hash of a block: its chain id, number, parent and time, so no two blocks share one. */
export function blockHash(chainId: number, number: number, parentHash: Hex, timestamp: number): Hex {
  return keccak256(
    encodePacked(
      ["uint32", "uint64", "bytes32", "uint64"],
      [chainId, BigInt(number), parentHash, BigInt(timestamp)],
    ),
  );
}

export async function insertBlock(trx: DevchainDb, block: StoredBlock): Promise<void> {
  await trx
    .insertInto("chain_blocks")
    .values({
      number: block.number,
      hash: Buffer.from(block.hash.slice(2), "hex"),
      parent_hash: Buffer.from(block.parentHash.slice(2), "hex"),
      timestamp: block.timestamp,
      base_fee_per_gas: block.baseFeePerGas.toString(),
      gas_used: Number(block.gasUsed),
      logs_bloom: Buffer.from(block.logsBloom.slice(2), "hex"),
    })
    .execute();
}

/** The genesis block of a fresh chain, made once: a random hash makes every devchain's hashes its own. */
export async function ensureGenesis(
  trx: DevchainDb,
  nowSeconds: number,
  baseFee: bigint,
): Promise<StoredBlock> {
  const existing = await blockByNumber(trx, 0);
  if (existing) return existing;
  const genesis: StoredBlock = {
    number: 0,
    hash: keccak256(randomBytes(32)),
    parentHash: `0x${"00".repeat(32)}`,
    timestamp: nowSeconds,
    baseFeePerGas: baseFee,
    gasUsed: 0n,
    logsBloom: toHex(logsBloom([])),
  };
  await insertBlock(trx, genesis);
  return genesis;
}
