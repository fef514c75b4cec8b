/**
 * Storage units and what they allow (docs/reference/protocol-rules.md §5, reference hub era): every
 * unexpired storage-rent event counts until it expires; a unit's cohort, and so its limits and
 * lifetime, come from the block time of the rent. Loans move units between fids
 * (docs/reference/storage-lending.md §5): a fid uses what it rents, less what it lends, plus what it
 * borrows.
 */
import type { Kysely } from "kysely";
import { HubError } from "../../protocol/errors.js";
import { StorageUnitType } from "../../protocol/generated/message.js";
import { OnChainEvent, OnChainEventType } from "../../protocol/generated/onchain_event.js";
import { decodeMessage } from "../../protocol/message.js";
import { runCompiled } from "../../storage/index.js";
import { fidKey, StoreType } from "../data/keys.js";
import type { HubTables } from "../data/tables.js";

export type UnitType = "legacy" | "2024";
export type Units = Record<UnitType, number>;

const UNIT_TYPES: readonly UnitType[] = ["legacy", "2024"];
const COHORT_2024_FROM = 1724889600;
const YEAR_SECONDS = 365 * 24 * 60 * 60;

const PER_UNIT: Record<StoreType, Units> = {
  [StoreType.CASTS]: { legacy: 5000, "2024": 2000 },
  [StoreType.LINKS]: { legacy: 2500, "2024": 1000 },
  [StoreType.REACTIONS]: { legacy: 2500, "2024": 1000 },
  [StoreType.USER_DATA]: { legacy: 50, "2024": 50 },
  [StoreType.VERIFICATIONS]: { legacy: 25, "2024": 25 },
  [StoreType.USERNAME_PROOFS]: { legacy: 5, "2024": 5 },
  [StoreType.STORAGE_LENDS]: { legacy: 1, "2024": 1 },
};

export interface StorageUnits {
  /** Units the fid uses, per cohort: rented and unexpired, less what it lends, plus what it borrows. */
  units: Units;
  /** All of `units` together. */
  total: number;
  /** Units rented and unexpired, per cohort: what the fid may lend from. */
  purchased: Units;
  /** Units its standing loans give other fids, per cohort. */
  lent: Units;
  /** Units other fids' standing loans give it, per cohort. */
  borrowed: Units;
  /** The messages a store of the fid may hold; loans count rented units only, as a fid cannot lend what it borrowed. */
  limit(store: StoreType): number;
}

function noUnits(): Units {
  return { legacy: 0, "2024": 0 };
}

function unitTypeOf(blockTimestamp: number): UnitType {
  return blockTimestamp < COHORT_2024_FROM ? "legacy" : "2024";
}

/** The cohort a loan's unit type names; none for 2025 units, which castnet's rents never make. */
export function cohortOf(unitType: StorageUnitType): UnitType | undefined {
  if (unitType === StorageUnitType.UNIT_TYPE_LEGACY) return "legacy";
  if (unitType === StorageUnitType.UNIT_TYPE_2024) return "2024";
  return undefined;
}

/** Unix seconds at which a rent stops counting: two years for legacy units, one for 2024 units. */
function rentExpiry(blockTimestamp: number): number {
  return blockTimestamp + (unitTypeOf(blockTimestamp) === "legacy" ? 2 : 1) * YEAR_SECONDS;
}

interface Holdings {
  purchased: Units;
  lent: Units;
  borrowed: Units;
}

function storageOfHoldings({ purchased, lent, borrowed }: Holdings): StorageUnits {
  const units = noUnits();
  // A lender whose rent ran out lends more than it holds: it keeps nothing, rather than the
  // successor's unsigned wrap-around (docs/hub.md, Storage lending).
  for (const type of UNIT_TYPES) units[type] = Math.max(0, purchased[type] - lent[type]) + borrowed[type];
  const total = units.legacy + units["2024"];
  const weigh = (held: Units, store: StoreType) =>
    held.legacy * PER_UNIT[store].legacy + held["2024"] * PER_UNIT[store]["2024"];
  return {
    units,
    total,
    purchased,
    lent,
    borrowed,
    limit: (store) => weigh(store === StoreType.STORAGE_LENDS ? purchased : units, store),
  };
}

export async function loadStorage(db: Kysely<HubTables>, fid: number, nowMs: number): Promise<StorageUnits> {
  return (await loadStorages(db, [fid], nowMs)).get(fid)!;
}

/** The storage of several fids in two queries: their rents, and the loans they give or receive. */
export async function loadStorages(
  db: Kysely<HubTables>,
  fids: readonly number[],
  nowMs: number,
): Promise<Map<number, StorageUnits>> {
  const holdings = new Map<number, Holdings>(
    fids.map((fid) => [fid, { purchased: noUnits(), lent: noUnits(), borrowed: noUnits() }]),
  );
  const now = Math.floor(nowMs / 1000);
  const rents = await runCompiled(
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
  for (const rent of rents) {
    if (rentExpiry(rent.block_timestamp) <= now) continue;
    const units = OnChainEvent.decode(rent.event).storageRentEventBody?.units ?? 0;
    const held = holdings.get(rent.fid);
    if (held !== undefined) held.purchased[unitTypeOf(rent.block_timestamp)] += units;
  }
  for (const loan of await loansOf(db, fids)) {
    const cohort = cohortOf(loan.unitType);
    if (cohort === undefined) continue;
    const lender = holdings.get(loan.lender);
    if (lender !== undefined) lender.lent[cohort] += loan.units;
    const borrower = holdings.get(loan.borrower);
    if (borrower !== undefined) borrower.borrowed[cohort] += loan.units;
  }
  return new Map([...holdings].map(([fid, held]) => [fid, storageOfHoldings(held)]));
}

interface Loan {
  lender: number;
  borrower: number;
  units: number;
  unitType: StorageUnitType;
}

/**
 * The standing loans any of `fids` gives or receives, each once. The store is named in each half of
 * the condition so that each half seeks its own index: a lender's loans by the primary key, a
 * borrower's by the target index.
 */
async function loansOf(db: Kysely<HubTables>, fids: readonly number[]): Promise<Loan[]> {
  const store = StoreType.STORAGE_LENDS;
  const keys = fids.map(fidKey);
  const rows = await runCompiled(
    db,
    "storageLoans",
    () =>
      db
        .selectFrom("hub_messages")
        .select("message")
        .where((eb) =>
          eb.or([
            eb.and([eb("fid", "in", fids), eb("store", "=", store)]),
            eb.and([eb("store", "=", store), eb("target", "in", keys)]),
          ]),
        ),
    [...fids, store, store, ...keys],
  );
  return rows.map((row) => {
    const data = decodeMessage(row.message).message.data!;
    const body = data.lendStorageBody!;
    return { lender: data.fid, borrower: body.toFid, units: body.numUnits, unitType: body.unitType };
  });
}

/** A fid with no storage units may store nothing (docs/reference/protocol-rules.md §3 step 9). */
export function requireStorage(storage: StorageUnits): StorageUnits {
  if (storage.total === 0) throw new HubError("bad_request.no_storage", "no storage");
  return storage;
}
