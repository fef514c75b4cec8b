/**
 * A log as nodes answer it, in eth_getLogs, filters and receipts: rendered once, when its block is
 * mined, and kept beside it (chain_logs.json), so that a query answers stored text.
 */
import type { Hex } from "viem";
import { encodeQuantity as quantity } from "../quantity.js";

/** What a log's JSON says: a mined log (logStore.ts's MinedLog) has each of these. */
interface RenderedLog {
  address: Hex;
  topics: readonly Hex[];
  data: Hex;
  blockNumber: number;
  blockHash: Hex;
  blockTimestamp: number;
  transactionHash: Hex;
  transactionIndex: number;
  logIndex: number;
}

export function renderLog(log: RenderedLog): string {
  return JSON.stringify({
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: quantity(log.blockNumber),
    blockHash: log.blockHash,
    blockTimestamp: quantity(log.blockTimestamp),
    transactionHash: log.transactionHash,
    transactionIndex: quantity(log.transactionIndex),
    logIndex: quantity(log.logIndex),
    removed: false,
  });
}
