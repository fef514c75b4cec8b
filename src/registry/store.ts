import { toHex } from "../protocol/hex.js";
import type { Kysely } from "kysely";
import type { Address, Hex } from "viem";
import type { Transfer } from "../interfaces/transferFeed.js";
import { compiled, compiledOnce, type Database, hexOf } from "../storage/index.js";
import type { RegistryTables } from "./tables.js";

type Db = Kysely<RegistryTables>;

/** A transfer about to be recorded: everything but its id. */
export interface NewTransfer {
  timestamp: number;
  username: string;
  owner: Address;
  from: number;
  to: number;
  userSignature: Hex;
  serverSignature: Hex;
  userFid: number | undefined;
}

/** Filters of GET /transfers; each one given narrows the result (AND). */
export interface TransferFilter {
  /** id > afterId */
  afterId?: number;
  /** timestamp > afterTimestamp; also orders by timestamp, then id */
  afterTimestamp?: number;
  name?: string;
  /** from = fid OR to = fid */
  fid?: number;
}

const COLUMNS = [
  "id",
  "timestamp",
  "username",
  "owner",
  "from_fid",
  "to_fid",
  "user_signature",
  "server_signature",
] as const;

type Row = Pick<RegistryTables["registry_transfers"], Exclude<(typeof COLUMNS)[number], "id">> & {
  id: number;
};

function bytes(value: Hex): Buffer {
  return Buffer.from(value.slice(2), "hex");
}

function toTransfer(row: Row): Transfer {
  return {
    id: row.id,
    timestamp: row.timestamp,
    username: row.username,
    owner: toHex(row.owner) as Address,
    from: row.from_fid,
    to: row.to_fid,
    user_signature: toHex(row.user_signature),
    server_signature: toHex(row.server_signature),
  };
}

/**
 * The hot read of GET /transfers: compiled once per combination of filters (see storage/compiled.ts),
 * and run as a read of the database (on SQLite, batched with the reads of the same moment).
 */
export async function listTransfers(
  database: Database<RegistryTables>,
  filter: TransferFilter,
  limit: number,
): Promise<Transfer[]> {
  const { db, engine } = database;
  const { afterId, afterTimestamp, name, fid } = filter;
  const parameters: unknown[] = [];
  if (afterId !== undefined) parameters.push(afterId);
  if (afterTimestamp !== undefined) parameters.push(afterTimestamp);
  if (name !== undefined) parameters.push(name);
  if (fid !== undefined) parameters.push(fid, fid);
  parameters.push(limit);
  const shape =
    `registry.transfers|${afterId === undefined ? "" : "?"}|${afterTimestamp === undefined ? "" : "?"}` +
    `|${name === undefined ? "" : "?"}|${fid === undefined ? "" : "?"}`;
  // The rows come out as the API's transfers, hex made by the engine: no conversion per row.
  const rows = await database.read(
    compiled(
      db,
      shape,
      () => {
        let query = db
          .selectFrom("registry_transfers")
          .select([
            "id",
            "timestamp",
            "username",
            hexOf(engine, "owner").as("owner"),
            "from_fid as from",
            "to_fid as to",
            hexOf(engine, "user_signature").as("user_signature"),
            hexOf(engine, "server_signature").as("server_signature"),
          ]);
        if (afterId !== undefined) query = query.where("id", ">", afterId);
        if (afterTimestamp !== undefined) query = query.where("timestamp", ">", afterTimestamp);
        if (name !== undefined) query = query.where("username", "=", name);
        if (fid !== undefined)
          query = query.where((w) => w.or([w("from_fid", "=", fid), w("to_fid", "=", fid)]));
        query = afterTimestamp !== undefined ? query.orderBy("timestamp").orderBy("id") : query.orderBy("id");
        return query.limit(limit);
      },
      parameters,
    ),
  );
  return rows as Transfer[];
}

/** The name's newest transfer. Timestamps never decrease per name, so the highest id is also the latest in time. */
export async function latestOfName(db: Db, name: string): Promise<Transfer | undefined> {
  const [row] = await latestOfNameQuery(db, [name, 1]);
  return row && toTransfer(row);
}

const latestOfNameQuery = compiledOnce<RegistryTables, Row>("registry.latestOfName", (db, [name, limit]) =>
  db
    .selectFrom("registry_transfers")
    .select(COLUMNS)
    .where("username", "=", name as string)
    .orderBy("id", "desc")
    .limit(limit as number),
);

/** The name's transfers signed at `timestamp` (looked up by name, which is indexed; a name's history is short). */
export async function transfersOfNameAt(db: Db, name: string, timestamp: number): Promise<Transfer[]> {
  const rows = await transfersOfNameAtQuery(db, [name, timestamp]);
  return rows.map(toTransfer);
}

const transfersOfNameAtQuery = compiledOnce<RegistryTables, Row>(
  "registry.transfersOfNameAt",
  (db, [name, timestamp]) =>
    db
      .selectFrom("registry_transfers")
      .select(COLUMNS)
      .where("username", "=", name as string)
      .where("timestamp", "=", timestamp as number),
);

/** The newest transfer of all, by timestamp (the reference's "latest"), then id. */
export async function latestOverall(db: Db): Promise<Transfer | undefined> {
  const row = await db
    .selectFrom("registry_transfers")
    .select(COLUMNS)
    .orderBy("timestamp", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row && toTransfer(row);
}

export async function nameOfFid(db: Db, fid: number): Promise<string | undefined> {
  const [row] = await nameOfFidQuery(db, [fid]);
  return row?.name;
}

const nameOfFidQuery = compiledOnce<RegistryTables, { name: string }>("registry.nameOfFid", (db, [fid]) =>
  db
    .selectFrom("registry_names")
    .select("name")
    .where("fid", "=", fid as number),
);

/**
 * Appends the transfer and moves the name in `registry_names` (insert on registration, delete on
 * unregistration, reassign on transfer). Run it inside a transaction: the two writes stand or fall
 * together, and the unique keys reject a second holder or a second name for one fid.
 */
export async function recordTransfer(trx: Db, transfer: NewTransfer): Promise<Transfer> {
  const row = await trx
    .insertInto("registry_transfers")
    .values({
      timestamp: transfer.timestamp,
      username: transfer.username,
      owner: bytes(transfer.owner),
      from_fid: transfer.from,
      to_fid: transfer.to,
      user_signature: bytes(transfer.userSignature),
      server_signature: bytes(transfer.serverSignature),
      user_fid: transfer.userFid ?? null,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  if (transfer.from === 0) {
    await trx.insertInto("registry_names").values({ name: transfer.username, fid: transfer.to }).execute();
  } else {
    const moved =
      transfer.to === 0
        ? await trx
            .deleteFrom("registry_names")
            .where("name", "=", transfer.username)
            .where("fid", "=", transfer.from)
            .executeTakeFirst()
        : await trx
            .updateTable("registry_names")
            .set({ fid: transfer.to })
            .where("name", "=", transfer.username)
            .where("fid", "=", transfer.from)
            .executeTakeFirst();
    const count = "numDeletedRows" in moved ? moved.numDeletedRows : moved.numUpdatedRows;
    if (count !== 1n) throw new Error(`name ${transfer.username} is not held by fid ${transfer.from}`);
  }
  return toTransfer(row);
}

async function getSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("registry_settings")
    .select("value")
    .where("key", "=", key)
    .executeTakeFirst();
  return row?.value;
}

/** Stores the value unless the key already has one; returns the value that is stored now. */
export async function settleSetting(trx: Db, key: string, value: string): Promise<string> {
  await trx
    .insertInto("registry_settings")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  return (await getSetting(trx, key)) ?? value;
}
