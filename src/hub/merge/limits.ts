/**
 * StorageUnits units and what they allow (docs/reference/protocol-rules.md §5, reference hub era): every unrented
 * storage-rent event counts until it expires; a unit's cohort, and so its limits and lifetime,
 * come from the block time of the rent.
 */
import type { Kysely } from "kysely";
import { HubError } from "../../protocol/errors.js";
import { OnChainEvent, OnChainEventType } from "../../protocol/generated/onchain_event.js";
import { runCompiled } from "../../storage/index.js";
import { StoreType } from "../data/keys.js";
import type { HubTables } from "../data/tables.js";

export type UnitType = "legacy" | "2024";

const COHORT_2024_FROM = 1724889600;
const YEAR_SECONDS = 365 * 24 * 60 * 60;

const PER_UNIT: Record<StoreType, Record<UnitType, number>> = {
  [StoreType.CASTS]: { legacy: 5000, "2024": 2000 },
  [StoreType.LINKS]: { legacy: 2500, "2024": 1000 },
  [StoreType.REACTIONS]: { legacy: 2500, "2024": 1000 },
  [StoreType.USER_DATA]: { legacy: 50, "2024": 50 },
  [StoreType.VERIFICATIONS]: { legacy: 25, "2024": 25 },
  [StoreType.USERNAME_PROOFS]: { legacy: 5, "2024": 5 },
};

export interface StorageUnits {
  /** Active units per cohort. */
  units: Record<UnitType, number>;
  total: number;
  limit(store: StoreType): number;
}

function unitTypeOf(blockTimestamp: number): UnitType {
  return blockTimestamp < COHORT_2024_FROM ? "legacy" : "2024";
}

/** Unix seconds at which a rent stops counting: two years for legacy units, one for 2024 units. */
function rentExpiry(blockTimestamp: number): number {
  return blockTimestamp + (unitTypeOf(blockTimestamp) === "legacy" ? 2 : 1) * YEAR_SECONDS;
}

function storageFromRents(
  rents: readonly { units: number; blockTimestamp: number }[],
  nowMs: number,
): StorageUnits {
  const now = Math.floor(nowMs / 1000);
  const units: Record<UnitType, number> = { legacy: 0, "2024": 0 };
  for (const rent of rents) {
    if (rentExpiry(rent.blockTimestamp) > now) units[unitTypeOf(rent.blockTimestamp)] += rent.units;
  }
  return {
    units,
    total: units.legacy + units["2024"],
    limit: (store) => units.legacy * PER_UNIT[store].legacy + units["2024"] * PER_UNIT[store]["2024"],
  };
}

export async function loadStorage(db: Kysely<HubTables>, fid: number, nowMs: number): Promise<StorageUnits> {
  return (await loadStorages(db, [fid], nowMs)).get(fid)!;
}

/** The storage of several fids in one query. */
export async function loadStorages(
  db: Kysely<HubTables>,
  fids: readonly number[],
  nowMs: number,
): Promise<Map<number, StorageUnits>> {
  const rows = await runCompiled(
    db,
    "storageRents",
    () =>
      db
        .selectFrom("hub_onchain_events")
        .select(["fid", "event", "block_timestamp"])
        .where("fid", "in", fids)
        .where("type", "=", OnChainEventType.EVENT_TYPE_STORAGE_RENT),
    [...fids, OnChainEventType.EVENT_TYPE_STORAGE_RENT],
  );
  const rents = new Map<number, { units: number; blockTimestamp: number }[]>(fids.map((fid) => [fid, []]));
  for (const row of rows) {
    rents.get(row.fid)?.push({
      units: OnChainEvent.decode(row.event).storageRentEventBody?.units ?? 0,
      blockTimestamp: row.block_timestamp,
    });
  }
  return new Map([...rents].map(([fid, list]) => [fid, storageFromRents(list, nowMs)]));
}

/** A fid with no storage units may store nothing (docs/reference/protocol-rules.md §3 step 9). */
export function requireStorage(storage: StorageUnits): StorageUnits {
  if (storage.total === 0) throw new HubError("bad_request.no_storage", "no storage");
  return storage;
}
