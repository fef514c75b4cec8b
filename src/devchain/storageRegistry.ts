/**
 * The storage registry: units of storage a fid rents for a year at a time. The custody address
 * pays; registering rents nothing.
 */
import { hexToBytes } from "viem";
import { OnChainEventType } from "../protocol/generated/onchain_event.js";
import { toProtocolTime } from "../protocol/time.js";
import type { Hex } from "../interfaces/chain.js";
import { DevchainError } from "../interfaces/chainErrors.js";
import type { MineTransaction } from "./events.js";
import { requireFid } from "./idRegistry.js";
import type { DevchainDb } from "./tables.js";

export const MAX_UNITS_PER_RENT = 1000;
/** The StorageRegistry's event version (docs/reference/protocol-wire.md §4). */
const STORAGE_REGISTRY_VERSION = 0;
const RENT_PERIOD_SECONDS = 365 * 24 * 60 * 60;

export function checkUnits(units: number): void {
  if (!Number.isSafeInteger(units) || units < 1 || units > MAX_UNITS_PER_RENT) {
    throw new DevchainError("invalid_units", `units must be an integer from 1 to ${MAX_UNITS_PER_RENT}`);
  }
}

/** Rents `units` for `fid`, paid by its custody address, in transaction `txSeq`; returns the fid. */
export async function recordRent(
  trx: DevchainDb,
  txSeq: number,
  fid: number,
  units: number,
): Promise<number> {
  const owner = await requireFid(trx, fid);
  await trx
    .insertInto("chain_storage")
    .values({ tx_seq: txSeq, fid, units, payer: owner.custody, block_number: null, expires_at: null })
    .execute();
  return fid;
}

export const mineRent: MineTransaction = async (trx, txSeq, block) => {
  await trx
    .updateTable("chain_storage")
    .set({ block_number: block.number, expires_at: block.timestamp + RENT_PERIOD_SECONDS })
    .where("tx_seq", "=", txSeq)
    .execute();
  const row = await trx
    .selectFrom("chain_storage")
    .select(["units", "payer"])
    .where("tx_seq", "=", txSeq)
    .executeTakeFirstOrThrow();
  return {
    type: OnChainEventType.EVENT_TYPE_STORAGE_RENT,
    version: STORAGE_REGISTRY_VERSION,
    storageRentEventBody: {
      payer: hexToBytes(row.payer as Hex),
      units: row.units,
      // The reference hub writes this expiry in protocol-epoch seconds
      // (docs/reference/protocol-wire.md §4).
      expiry: toProtocolTime(block.timestamp * 1000) + RENT_PERIOD_SECONDS,
    },
  };
};

/** Units of mined rents that expire after `nowSeconds`. */
export async function activeStorageUnits(db: DevchainDb, fid: number, nowSeconds: number): Promise<number> {
  const row = await db
    .selectFrom("chain_storage")
    .select((eb) => eb.fn.sum<number | string | null>("units").as("units"))
    .where("fid", "=", fid)
    .where("expires_at", ">", nowSeconds)
    .executeTakeFirst();
  return Number(row?.units ?? 0);
}
