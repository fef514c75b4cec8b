/** Queries over the chain_ tables. Writers take the transaction they run in. */
import type { Kysely } from "kysely";
import type { ChainTables, TransactionKind } from "./tables.js";

export type ChainDb = Kysely<ChainTables>;

export interface BlockRow {
  number: number;
  hash: Uint8Array;
  timestamp: number;
}

export interface TransactionRow {
  seq: number;
  hash: Uint8Array;
  kind: TransactionKind;
  fid: number;
  blockNumber: number | null;
}

export async function latestBlock(db: ChainDb): Promise<BlockRow | undefined> {
  const row = await db
    .selectFrom("chain_blocks")
    .select(["number", "hash", "timestamp"])
    .orderBy("number", "desc")
    .limit(1)
    .executeTakeFirst();
  return (
    row && { number: Number(row.number), hash: new Uint8Array(row.hash), timestamp: Number(row.timestamp) }
  );
}

export async function genesisHash(db: ChainDb): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom("chain_blocks").select("hash").where("number", "=", 0).executeTakeFirst();
  return row && new Uint8Array(row.hash);
}

export async function insertBlock(trx: ChainDb, block: BlockRow & { parentHash: Uint8Array }): Promise<void> {
  await trx
    .insertInto("chain_blocks")
    .values({
      number: block.number,
      hash: block.hash,
      parent_hash: block.parentHash,
      timestamp: block.timestamp,
    })
    .execute();
}

export async function nextTransactionSeq(trx: ChainDb): Promise<number> {
  const row = await trx
    .selectFrom("chain_transactions")
    .select((eb) => eb.fn.max("seq").as("seq"))
    .executeTakeFirst();
  return Number(row?.seq ?? 0) + 1;
}

export async function insertTransaction(
  trx: ChainDb,
  tx: { seq: number; hash: Uint8Array; kind: TransactionKind; fid: number },
): Promise<void> {
  await trx
    .insertInto("chain_transactions")
    .values({ ...tx, block_number: null, tx_index: null })
    .execute();
}

function toTransactionRow(row: {
  seq: number;
  hash: Uint8Array;
  kind: TransactionKind;
  fid: number;
  block_number: number | null;
}): TransactionRow {
  return {
    seq: Number(row.seq),
    hash: new Uint8Array(row.hash),
    kind: row.kind,
    fid: Number(row.fid),
    blockNumber: row.block_number === null ? null : Number(row.block_number),
  };
}

export async function transactionByHash(db: ChainDb, hash: Uint8Array): Promise<TransactionRow | undefined> {
  const row = await db
    .selectFrom("chain_transactions")
    .select(["seq", "hash", "kind", "fid", "block_number"])
    .where("hash", "=", hash)
    .executeTakeFirst();
  return row && toTransactionRow(row);
}

export async function pendingTransactions(trx: ChainDb): Promise<TransactionRow[]> {
  const rows = await trx
    .selectFrom("chain_transactions")
    .select(["seq", "hash", "kind", "fid", "block_number"])
    .where("block_number", "is", null)
    .orderBy("seq")
    .execute();
  return rows.map(toTransactionRow);
}

export async function markTransactionMined(
  trx: ChainDb,
  seq: number,
  blockNumber: number,
  txIndex: number,
): Promise<void> {
  await trx
    .updateTable("chain_transactions")
    .set({ block_number: blockNumber, tx_index: txIndex })
    .where("seq", "=", seq)
    .execute();
}

// Fids. Reads for other parts see mined rows only; rule checks see pending ones too.

export interface FidRow {
  fid: number;
  custody: string;
  recovery: string;
  mined: boolean;
}

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

export async function fidRow(db: ChainDb, fid: number): Promise<FidRow | undefined> {
  const row = await db
    .selectFrom("chain_fids")
    .select(["fid", "custody", "recovery", "block_number"])
    .where("fid", "=", fid)
    .executeTakeFirst();
  return row && toFidRow(row);
}

export async function fidRowByCustody(db: ChainDb, custody: string): Promise<FidRow | undefined> {
  const row = await db
    .selectFrom("chain_fids")
    .select(["fid", "custody", "recovery", "block_number"])
    .where("custody", "=", custody)
    .executeTakeFirst();
  return row && toFidRow(row);
}

export async function nextFid(trx: ChainDb): Promise<number> {
  const row = await trx
    .selectFrom("chain_fids")
    .select((eb) => eb.fn.max("fid").as("fid"))
    .executeTakeFirst();
  return Number(row?.fid ?? 0) + 1;
}

export async function insertFid(
  trx: ChainDb,
  row: { fid: number; custody: string; recovery: string; txSeq: number },
): Promise<void> {
  await trx
    .insertInto("chain_fids")
    .values({
      fid: row.fid,
      custody: row.custody,
      recovery: row.recovery,
      tx_seq: row.txSeq,
      block_number: null,
    })
    .execute();
}

export async function mineFid(trx: ChainDb, txSeq: number, blockNumber: number): Promise<FidRow> {
  await trx
    .updateTable("chain_fids")
    .set({ block_number: blockNumber })
    .where("tx_seq", "=", txSeq)
    .execute();
  const row = await trx
    .selectFrom("chain_fids")
    .select(["fid", "custody", "recovery", "block_number"])
    .where("tx_seq", "=", txSeq)
    .executeTakeFirstOrThrow();
  return toFidRow(row);
}

// Signers.

export interface SignerRow {
  fid: number;
  key: Uint8Array;
  keyType: number;
  metadataType: number;
  metadata: Uint8Array;
  /** Pending or mined remove. */
  removeSubmitted: boolean;
}

const signerColumns = ["fid", "key", "key_type", "metadata_type", "metadata", "remove_tx_seq"] as const;

function toSignerRow(row: {
  fid: number;
  key: Uint8Array;
  key_type: number;
  metadata_type: number;
  metadata: Uint8Array;
  remove_tx_seq: number | null;
}): SignerRow {
  return {
    fid: Number(row.fid),
    key: new Uint8Array(row.key),
    keyType: row.key_type,
    metadataType: row.metadata_type,
    metadata: new Uint8Array(row.metadata),
    removeSubmitted: row.remove_tx_seq !== null,
  };
}

export async function signerRow(db: ChainDb, fid: number, key: Uint8Array): Promise<SignerRow | undefined> {
  const row = await db
    .selectFrom("chain_signers")
    .select(signerColumns)
    .where("fid", "=", fid)
    .where("key", "=", key)
    .executeTakeFirst();
  return row && toSignerRow(row);
}

export async function activeSigners(db: ChainDb, fid: number): Promise<SignerRow[]> {
  const rows = await db
    .selectFrom("chain_signers")
    .select(signerColumns)
    .where("fid", "=", fid)
    .where("added_block", "is not", null)
    .where("removed_block", "is", null)
    .orderBy("add_tx_seq")
    .execute();
  return rows.map(toSignerRow);
}

export async function insertSigner(
  trx: ChainDb,
  row: {
    fid: number;
    key: Uint8Array;
    keyType: number;
    metadataType: number;
    metadata: Uint8Array;
    txSeq: number;
  },
): Promise<void> {
  await trx
    .insertInto("chain_signers")
    .values({
      fid: row.fid,
      key: row.key,
      key_type: row.keyType,
      metadata_type: row.metadataType,
      metadata: row.metadata,
      add_tx_seq: row.txSeq,
      added_block: null,
      remove_tx_seq: null,
      removed_block: null,
    })
    .execute();
}

export async function submitSignerRemove(
  trx: ChainDb,
  fid: number,
  key: Uint8Array,
  txSeq: number,
): Promise<void> {
  await trx
    .updateTable("chain_signers")
    .set({ remove_tx_seq: txSeq })
    .where("fid", "=", fid)
    .where("key", "=", key)
    .execute();
}

export async function mineSignerAdd(trx: ChainDb, txSeq: number, blockNumber: number): Promise<SignerRow> {
  await trx
    .updateTable("chain_signers")
    .set({ added_block: blockNumber })
    .where("add_tx_seq", "=", txSeq)
    .execute();
  const row = await trx
    .selectFrom("chain_signers")
    .select(signerColumns)
    .where("add_tx_seq", "=", txSeq)
    .executeTakeFirstOrThrow();
  return toSignerRow(row);
}

export async function mineSignerRemove(trx: ChainDb, txSeq: number, blockNumber: number): Promise<SignerRow> {
  await trx
    .updateTable("chain_signers")
    .set({ removed_block: blockNumber })
    .where("remove_tx_seq", "=", txSeq)
    .execute();
  const row = await trx
    .selectFrom("chain_signers")
    .select(signerColumns)
    .where("remove_tx_seq", "=", txSeq)
    .executeTakeFirstOrThrow();
  return toSignerRow(row);
}

// Storage.

export async function insertStorageRent(
  trx: ChainDb,
  row: { txSeq: number; fid: number; units: number; payer: string },
): Promise<void> {
  await trx
    .insertInto("chain_storage")
    .values({
      tx_seq: row.txSeq,
      fid: row.fid,
      units: row.units,
      payer: row.payer,
      block_number: null,
      expires_at: null,
    })
    .execute();
}

export async function mineStorageRent(
  trx: ChainDb,
  txSeq: number,
  blockNumber: number,
  expiresAt: number,
): Promise<{ fid: number; units: number; payer: string }> {
  await trx
    .updateTable("chain_storage")
    .set({ block_number: blockNumber, expires_at: expiresAt })
    .where("tx_seq", "=", txSeq)
    .execute();
  const row = await trx
    .selectFrom("chain_storage")
    .select(["fid", "units", "payer"])
    .where("tx_seq", "=", txSeq)
    .executeTakeFirstOrThrow();
  return { fid: Number(row.fid), units: row.units, payer: row.payer };
}

/** Units of mined rents that expire after `nowSeconds`. */
export async function activeStorageUnits(db: ChainDb, fid: number, nowSeconds: number): Promise<number> {
  const row = await db
    .selectFrom("chain_storage")
    .select((eb) => eb.fn.sum<number | string | null>("units").as("units"))
    .where("fid", "=", fid)
    .where("expires_at", ">", nowSeconds)
    .executeTakeFirst();
  return Number(row?.units ?? 0);
}

// Events.

export async function insertEvent(
  trx: ChainDb,
  row: { blockNumber: number; logIndex: number; txSeq: number; event: Uint8Array },
): Promise<void> {
  await trx
    .insertInto("chain_events")
    .values({ block_number: row.blockNumber, log_index: row.logIndex, tx_seq: row.txSeq, event: row.event })
    .execute();
}

export interface EventRow {
  blockNumber: number;
  event: Uint8Array;
}

function toEventRow(row: { block_number: number; event: Uint8Array }): EventRow {
  return { blockNumber: Number(row.block_number), event: new Uint8Array(row.event) };
}

export async function eventsFrom(
  db: ChainDb,
  fromBlock: number,
  toBlock: number,
  limit: number,
): Promise<EventRow[]> {
  const rows = await db
    .selectFrom("chain_events")
    .select(["block_number", "event"])
    .where("block_number", ">=", fromBlock)
    .where("block_number", "<=", toBlock)
    .orderBy("block_number")
    .orderBy("log_index")
    .limit(limit)
    .execute();
  return rows.map(toEventRow);
}

export async function eventsOfBlock(db: ChainDb, blockNumber: number): Promise<EventRow[]> {
  const rows = await db
    .selectFrom("chain_events")
    .select(["block_number", "event"])
    .where("block_number", "=", blockNumber)
    .orderBy("log_index")
    .execute();
  return rows.map(toEventRow);
}

export async function eventsOfTransaction(db: ChainDb, txSeq: number): Promise<EventRow[]> {
  const rows = await db
    .selectFrom("chain_events")
    .select(["block_number", "event"])
    .where("tx_seq", "=", txSeq)
    .orderBy("log_index")
    .execute();
  return rows.map(toEventRow);
}
