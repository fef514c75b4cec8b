/** The hub's answer about a fid's storage: each store's limit and use, and its units. */
import type { Kysely } from "kysely";
import { STORE_NAMES, STORE_TYPES } from "../keys.js";
import { loadStorage } from "../../merge/limits.js";
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
  unitDetails: { unitType: string; unitSize: number }[];
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
      limits.push({
        storeType: `STORE_TYPE_${STORE_NAMES[type]}`,
        name: STORE_NAMES[type],
        limit: storage.limit(type),
        used: counts.get(type) ?? 0,
        earliestTimestamp: earliest?.timestamp ?? 0,
        earliestHash: earliest === undefined ? "" : Buffer.from(earliest.hash).toString("base64"),
      });
    }
    return {
      limits,
      units: storage.total,
      unitDetails: [
        { unitType: "UNIT_TYPE_LEGACY", unitSize: storage.units.legacy },
        { unitType: "UNIT_TYPE_2024", unitSize: storage.units["2024"] },
      ],
    };
  }
}
