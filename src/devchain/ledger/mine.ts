/**
 * Mining: the pending transactions, in the order they were sent, run on the state the latest block
 * left, into a new block with their receipts, their logs (indexed across the block) and what they
 * wrote to the state.
 */
import type { Hex } from "viem";
import { StateOverlay } from "../contracts/state.js";
import type { DevchainDb } from "../tables.js";
import { blockHash, insertBlock, latestStoredBlock, type StoredBlock } from "./blockStore.js";
import { type BlockEnv, executeTransaction } from "./execute.js";
import { toHex } from "../../protocol/hex.js";
import { logsBloom } from "./bloom.js";
import { insertLogs, type StoredLog } from "./logStore.js";
import { stateAt, writeState } from "./stateStore.js";
import { completeTransaction, pendingTransactions } from "./txStore.js";

export type ChainEnv = Omit<BlockEnv, "number" | "timestamp">;

/**
 * Mines one block with what is pending; with nothing pending only when `empty` (the block timer
 * mines empty blocks, so that followers waiting for confirmations advance). Returns the block, or
 * undefined when nothing was mined.
 */
export async function mineBlock(
  trx: DevchainDb,
  env: ChainEnv,
  nowSeconds: number,
  empty: boolean,
): Promise<StoredBlock | undefined> {
  const pending = await pendingTransactions(trx);
  if (pending.length === 0 && !empty) return undefined;
  const parent = await latestStoredBlock(trx);
  const number = parent.number + 1;
  // Timestamps never go back, whatever the clock does.
  const timestamp = Math.max(parent.timestamp, nowSeconds);
  const state = new StateOverlay(stateAt(trx, parent.number));
  const blockEnv: BlockEnv = { ...env, number: BigInt(number), timestamp: BigInt(timestamp) };
  const logs: (StoredLog & { transactionHash: Hex; transactionIndex: number })[] = [];
  let gasUsed = 0n;
  for (const [txIndex, tx] of pending.entries()) {
    const execution = await executeTransaction(state, tx, blockEnv);
    gasUsed += execution.gasUsed;
    for (const log of execution.logs)
      logs.push({
        ...log,
        blockNumber: number,
        logIndex: logs.length,
        txSeq: tx.seq,
        transactionHash: tx.hash,
        transactionIndex: txIndex,
      });
    await completeTransaction(trx, tx.seq, { blockNumber: number, txIndex, ...execution });
  }
  const block: StoredBlock = {
    number,
    hash: blockHash(env.chainId, number, parent.hash, timestamp),
    parentHash: parent.hash,
    timestamp,
    baseFeePerGas: env.baseFee,
    gasUsed,
    logsBloom: toHex(logsBloom(logs)),
  };
  await insertBlock(trx, block);
  await insertLogs(
    trx,
    logs.map((log) => ({ ...log, blockHash: block.hash, blockTimestamp: timestamp })),
  );
  await writeState(trx, number, state.writes);
  return block;
}
