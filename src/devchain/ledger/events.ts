/**
 * The hub's on-chain events, derived from the registries' logs exactly as a hub following the
 * chain over JSON-RPC derives them (src/interfaces/chainLogs.ts): one source of truth, two readers.
 */
import type { Log } from "viem";
import { eventsQuery } from "../../interfaces/chain.js";
import {
  OP_MAINNET_REGISTRIES,
  onChainEventOfLog,
  REGISTRY_EVENT_TOPICS,
} from "../../interfaces/chainLogs.js";
import type { OnChainEvent } from "../../protocol/generated/onchain_event.js";
import type { Ledger, MinedLog } from "./index.js";

export interface EventsPage {
  events: OnChainEvent[];
  /** Where the next page starts. */
  nextFromBlock: number;
  /** True when the page was cut short by the limit. */
  hasMore: boolean;
}

const REGISTRIES = [
  OP_MAINNET_REGISTRIES.idRegistry,
  OP_MAINNET_REGISTRIES.keyRegistry,
  OP_MAINNET_REGISTRIES.storageRegistry,
];

/** The events of mined logs. */
export function eventsOfLogs(ledger: Ledger, logs: readonly MinedLog[]): OnChainEvent[] {
  const events: OnChainEvent[] = [];
  for (const log of logs) {
    const viemLog: Log = {
      address: log.address,
      topics: log.topics as Log["topics"],
      data: log.data,
      blockHash: log.blockHash,
      blockNumber: BigInt(log.blockNumber),
      transactionHash: log.transactionHash,
      transactionIndex: log.transactionIndex,
      logIndex: log.logIndex,
      removed: false,
    };
    const block = { hash: log.blockHash, number: log.blockNumber, timestamp: log.blockTimestamp };
    const event = onChainEventOfLog(viemLog, block, ledger.chainId);
    if (event) events.push(event);
  }
  return events;
}

/**
 * Whole blocks of events from `fromBlock` up to the latest block, at most `limit` events unless one
 * block alone has more.
 */
export async function eventsPage(ledger: Ledger, fromBlock: number, limit: number): Promise<EventsPage> {
  const { fromBlock: from, limit: size } = eventsQuery(fromBlock, limit);
  const latest = (await ledger.latestBlock()).number;
  const filter = { addresses: REGISTRIES, topics: [REGISTRY_EVENT_TOPICS] };
  const logs = await ledger.logs({ ...filter, fromBlock: from, toBlock: latest }, size + 1);
  if (logs.length <= size)
    return {
      events: eventsOfLogs(ledger, logs),
      nextFromBlock: Math.max(from, latest + 1),
      hasMore: false,
    };
  const cut = logs[size]!.blockNumber;
  let page = logs.slice(0, size).filter((log) => log.blockNumber < cut);
  // One block with more events than a page comes whole.
  if (page.length === 0)
    page = await ledger.logs({ ...filter, fromBlock: cut, toBlock: cut }, Number.MAX_SAFE_INTEGER);
  return {
    events: eventsOfLogs(ledger, page),
    nextFromBlock: page[page.length - 1]!.blockNumber + 1,
    hasMore: true,
  };
}
