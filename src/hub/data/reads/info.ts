/** The hub's answer about itself (GET /v1/info), in the reference's key order. */
import type { Database } from "../../../storage/index.js";
import { approximateSize, statistics } from "../statistics.js";
import type { HubTables } from "../tables.js";

export interface HubIdentity {
  version: string;
  peerId: string;
  nickname: string;
}

export interface HubInfo {
  version: string;
  isSyncing: boolean;
  nickname: string;
  rootHash: string;
  dbStats?: { numMessages: number; numFidEvents: number; numFnameEvents: number; approxSize: number };
  peerId: string;
  hubOperatorFid: number;
}

export async function hubInfo(
  database: Database<HubTables>,
  identity: HubIdentity,
  withStats: boolean,
): Promise<HubInfo> {
  const dbStats = withStats
    ? { ...(await statistics(database.db)), approxSize: await approximateSize(database) }
    : undefined;
  return {
    version: identity.version,
    isSyncing: false,
    nickname: identity.nickname,
    rootHash: "",
    ...(dbStats === undefined ? {} : { dbStats }),
    peerId: identity.peerId,
    hubOperatorFid: 0,
  };
}
