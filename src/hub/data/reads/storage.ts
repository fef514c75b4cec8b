/** The hub's answer about a fid's storage: each store's limit and use, and its units. */
import { type Kysely, sql } from "kysely";
import { fidKey, STORE_NAMES, STORE_TYPES, StoreType } from "../keys.js";
import { loadStorage, type UnitType } from "../../merge/limits.js";
import { earliestMessage } from "../messageReads.js";
import { storeCounts } from "../statistics.js";
import type { HubTables } from "../tables.js";

export interface StorageLimitsJson {
  limits: {
    storeType: string;
    name: string;
    limit: number;
    used: number;
    earliestTimestamp: number;
    earliestHash: string;
  }[];
  units: number;
  unitDetails: {
    unitType: string;
    unitSize: number;
    purchasedUnitSize: number;
    lentUnitSize: number;
    borrowedUnitSize: number;
  }[];
}

const UNIT_TYPE_NAMES: [UnitType, string][] = [
  ["legacy", "UNIT_TYPE_LEGACY"],
  ["2024", "UNIT_TYPE_2024"],
];

/** Loans other fids give this one: the successor counts them as used in its loans store too. */
async function loansReceived(db: Kysely<HubTables>, fid: number): Promise<number> {
  const row = await db
    .selectFrom("hub_messages")
    .select(sql<number | string>`count(*)`.as("n"))
    .where("store", "=", StoreType.STORAGE_LENDS)
    .where("target", "=", fidKey(fid))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The hub's reads of a fid's storage. */
export class StorageReads {
  constructor(
    private readonly db: Kysely<HubTables>,
    private readonly now: () => number,
  ) {}

  async limitsByFid(fid: number): Promise<StorageLimitsJson> {
    const db = this.db;
    const storage = await loadStorage(db, fid, this.now());
    const counts = await storeCounts(db, fid);
    const limits = [];
    for (const type of STORE_TYPES) {
      const earliest = await earliestMessage(db, fid, type);
      const received = type === StoreType.STORAGE_LENDS ? await loansReceived(db, fid) : 0;
      limits.push({
        storeType: `STORE_TYPE_${STORE_NAMES[type]}`,
        name: STORE_NAMES[type],
        limit: storage.limit(type),
        used: (counts.get(type) ?? 0) + received,
        earliestTimestamp: earliest?.timestamp ?? 0,
        earliestHash: earliest === undefined ? "" : Buffer.from(earliest.hash).toString("base64"),
      });
    }
    return {
      limits,
      units: storage.total,
      unitDetails: UNIT_TYPE_NAMES.map(([type, unitType]) => ({
        unitType,
        unitSize: storage.units[type],
        purchasedUnitSize: storage.purchased[type],
        lentUnitSize: storage.lent[type],
        borrowedUnitSize: storage.borrowed[type],
      })),
    };
  }
}
