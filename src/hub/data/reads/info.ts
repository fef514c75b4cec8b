/**
 * The hub's answer about itself (GET /v1/info): the reference's keys in its order, then the
 * successor node's shard keys (docs/reference/hub-http-api.md §10).
 */
import type { Database } from "../../../storage/index.js";
import { approximateSize, statistics } from "../statistics.js";
import type { HubTables } from "../tables.js";

export interface HubIdentity {
  version: string;
  peerId: string;
  nickname: string;
}

/** One shard as the successor node reports it; castnet holds all its data in one, shard 1. */
export interface ShardInfo {
  shardId: number;
  /** Its newest block: castnet makes no blocks. */
  maxHeight: number;
  /** What the successor's sync trie holds: messages, on-chain events and fname proofs. */
  numMessages: number;
  numFidRegistrations: number;
  approxSize: number;
  /** Seconds its newest block is behind: none, with no blocks. */
  blockDelay: number;
  /** Messages waiting for a block: none, a submit is merged when it is answered. */
  mempoolSize: number;
}

export interface HubInfo {
  version: string;
  isSyncing: boolean;
  nickname: string;
  rootHash: string;
  dbStats?: { numMessages: number; numFidEvents: number; numFnameEvents: number; approxSize: number };
  peerId: string;
  hubOperatorFid: number;
  numShards: number;
  shardInfos: ShardInfo[];
}

/** castnet's one shard; the successor numbers its data shards from 1 (0 is its block shard). */
export const SHARD_ID = 1;

export async function hubInfo(
  database: Database<HubTables>,
  identity: HubIdentity,
  withStats: boolean,
): Promise<HubInfo> {
  const counts = await statistics(database.db);
  const approxSize = await approximateSize(database);
  const { numMessages, numFidEvents, numFnameEvents, numFidRegistrations } = counts;
  const shard: ShardInfo = {
    shardId: SHARD_ID,
    maxHeight: 0,
    numMessages: numMessages + numFidEvents + numFnameEvents,
    numFidRegistrations,
    approxSize,
    blockDelay: 0,
    mempoolSize: 0,
  };
  return {
    version: identity.version,
    isSyncing: false,
    nickname: identity.nickname,
    rootHash: "",
    ...(withStats ? { dbStats: { numMessages, numFidEvents, numFnameEvents, approxSize } } : {}),
    peerId: identity.peerId,
    hubOperatorFid: 0,
    numShards: 1,
    shardInfos: [shard],
  };
}
