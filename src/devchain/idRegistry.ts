/**
 * The id registry: fids with their custody and recovery addresses. Fids start at 1 and are never
 * reused; a custody address owns at most one fid. Rule checks see pending registrations too; reads
 * for other parts see mined ones only.
 */
import { getAddress, hexToBytes, isAddress, zeroAddress } from "viem";
import { IdRegisterEventType, OnChainEventType } from "../protocol/generated/onchain_event.js";
import type { Hex, RegisterRequest } from "../interfaces/chain.js";
import { DevchainError } from "../interfaces/chainErrors.js";
import type { MineTransaction } from "./events.js";
import type { DevchainDb } from "./tables.js";

/** The IdRegistry's event version (docs/reference/protocol-wire.md §4). */
const ID_REGISTRY_VERSION = 2;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export interface FidRow {
  fid: number;
  custody: string;
  recovery: string;
  mined: boolean;
}

/** Lower-case form of a 0x address; mixed case must be a valid EIP-55 checksum. */
export function normaliseAddress(value: string, field: string): string {
  if (!ADDRESS.test(value) || !isAddress(value, { strict: true })) {
    throw new DevchainError(
      "invalid_address",
      `${field} must be a 0x-prefixed 20-byte address (mixed case only with a valid checksum)`,
    );
  }
  return value.toLowerCase();
}

function isFid(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1;
}

export function unknownFid(fid: number): DevchainError {
  return new DevchainError("unknown_fid", `fid ${fid} is not registered`);
}

const fidColumns = ["fid", "custody", "recovery", "block_number"] as const;

function toFidRow(row: {
  fid: number;
  custody: string;
  recovery: string;
  block_number: number | null;
}): FidRow {
  return {
    fid: Number(row.fid),
    custody: row.custody,
    recovery: row.recovery,
    mined: row.block_number !== null,
  };
}

async function fidRow(db: DevchainDb, fid: number): Promise<FidRow | undefined> {
  const row = await db.selectFrom("chain_fids").select(fidColumns).where("fid", "=", fid).executeTakeFirst();
  return row && toFidRow(row);
}

async function fidRowByCustody(db: DevchainDb, custody: string): Promise<FidRow | undefined> {
  const row = await db
    .selectFrom("chain_fids")
    .select(fidColumns)
    .where("custody", "=", custody)
    .executeTakeFirst();
  return row && toFidRow(row);
}

/** The fid's row, pending or mined, for a write's rule checks. */
export async function requireFid(trx: DevchainDb, fid: number): Promise<FidRow> {
  if (!isFid(fid)) throw new DevchainError("bad_request", "fid must be a positive integer");
  const row = await fidRow(trx, fid);
  if (!row) throw unknownFid(fid);
  return row;
}

/** The mined fid's row. */
export async function minedFid(db: DevchainDb, fid: number): Promise<FidRow | undefined> {
  if (!isFid(fid)) return undefined;
  const row = await fidRow(db, fid);
  return row?.mined ? row : undefined;
}

export async function custodyOf(db: DevchainDb, fid: number): Promise<Hex | undefined> {
  const row = await minedFid(db, fid);
  return row && getAddress(row.custody);
}

export async function fidOf(db: DevchainDb, custody: Hex): Promise<number | undefined> {
  if (typeof custody !== "string" || !ADDRESS.test(custody)) return undefined;
  const row = await fidRowByCustody(db, custody.toLowerCase());
  return row?.mined ? row.fid : undefined;
}

/** A registration's addresses, checked and lower-cased before its transaction starts. */
export function parseRegister(request: RegisterRequest): { custody: string; recovery: string } {
  const custody = normaliseAddress(request.custody, "custody");
  const recovery = normaliseAddress(request.recovery ?? zeroAddress, "recovery");
  if (custody === zeroAddress)
    throw new DevchainError("invalid_address", "custody must not be the zero address");
  return { custody, recovery };
}

/** Registers the next fid to `custody` in transaction `txSeq`; returns the fid. */
export async function recordRegister(
  trx: DevchainDb,
  txSeq: number,
  { custody, recovery }: { custody: string; recovery: string },
): Promise<number> {
  const owner = await fidRowByCustody(trx, custody);
  if (owner) throw new DevchainError("custody_taken", `${getAddress(custody)} already owns fid ${owner.fid}`);
  const last = await trx
    .selectFrom("chain_fids")
    .select((eb) => eb.fn.max("fid").as("fid"))
    .executeTakeFirst();
  const fid = Number(last?.fid ?? 0) + 1;
  await trx
    .insertInto("chain_fids")
    .values({ fid, custody, recovery, tx_seq: txSeq, block_number: null })
    .execute();
  return fid;
}

export const mineRegister: MineTransaction = async (trx, txSeq, block) => {
  await trx
    .updateTable("chain_fids")
    .set({ block_number: block.number })
    .where("tx_seq", "=", txSeq)
    .execute();
  const row = await trx
    .selectFrom("chain_fids")
    .select(["custody", "recovery"])
    .where("tx_seq", "=", txSeq)
    .executeTakeFirstOrThrow();
  return {
    type: OnChainEventType.EVENT_TYPE_ID_REGISTER,
    version: ID_REGISTRY_VERSION,
    idRegisterEventBody: {
      to: hexToBytes(row.custody as Hex),
      eventType: IdRegisterEventType.REGISTER,
      from: new Uint8Array(0),
      recoveryAddress: hexToBytes(row.recovery as Hex),
    },
  };
};
