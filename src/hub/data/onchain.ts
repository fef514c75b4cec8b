/**
 * On-chain state as the hub holds it: registered fids and their custody, the signer index, and the
 * events themselves. Merging them is chainFollower.ts.
 */
import { OnChainEventType, SignerEventType } from "../../protocol/generated/onchain_event.js";
import { KEY_TYPE_ED25519 } from "../../protocol/contracts.js";
import { toHexJson } from "../../protocol/json/bytes.js";
import type { Kysely } from "kysely";
import { runCompiled } from "../../storage/index.js";
import { u64 } from "./keys.js";
import { cut, type KeyPage, type KeyPageRequest } from "./paging.js";
import type { HubTables } from "./tables.js";
import type { MergeContext } from "../merge/context.js";

type Db = Kysely<HubTables>;

/** How `activeSigners` names a key of a fid. */
export function signerId(fid: number, key: Uint8Array): string {
  return `${fid}:${toHexJson(key)}`;
}

/** The keys that may sign for each of `fids`, by `signerId`. */
export async function activeSigners(db: MergeContext["trx"], fids: readonly number[]): Promise<Set<string>> {
  const rows = await runCompiled(
    db,
    "activeSigners",
    () =>
      db
        .selectFrom("hub_signers")
        .select(["fid", "key"])
        .where("fid", "in", fids)
        .where("event_type", "=", SignerEventType.ADD)
        .where("key_type", "=", KEY_TYPE_ED25519),
    [...fids, SignerEventType.ADD, KEY_TYPE_ED25519],
  );
  return new Set(rows.map((row) => signerId(row.fid, row.key)));
}

/** Whether `key` may sign messages for `fid` now. */
export async function isActiveSigner(
  db: MergeContext["trx"],
  fid: number,
  key: Uint8Array,
): Promise<boolean> {
  const row = await db
    .selectFrom("hub_signers")
    .select(["event_type", "key_type"])
    .where("fid", "=", fid)
    .where("key", "=", key)
    .executeTakeFirst();
  return row !== undefined && row.event_type === SignerEventType.ADD && row.key_type === KEY_TYPE_ED25519;
}

function readU64(bytes: Uint8Array, offset = 0): number {
  return Number(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset, false));
}

/** Registered fids in ascending order; the page key is the fid as 8 big-endian bytes. */
export async function fids(db: Db, page: KeyPageRequest): Promise<KeyPage<number>> {
  let query = db.selectFrom("hub_fids").select("fid");
  if (page.after !== undefined) {
    if (page.after.length !== 8) return { items: [], next: undefined };
    query = query.where("fid", page.reverse ? "<" : ">", readU64(page.after));
  }
  const rows = await query
    .orderBy("fid", page.reverse ? "desc" : "asc")
    .limit(page.pageSize + 1)
    .execute();
  return cut(
    rows.map((row) => row.fid),
    page.pageSize,
    (fid) => u64(fid),
  );
}

export async function onChainEvents(
  db: Db,
  fid: number,
  type: OnChainEventType,
  limit: number,
): Promise<Uint8Array[]> {
  const rows = await db
    .selectFrom("hub_onchain_events")
    .select("event")
    .where("fid", "=", fid)
    .where("type", "=", type)
    .orderBy("block_number")
    .orderBy("log_index")
    .limit(limit)
    .execute();
  return rows.map((row) => row.event);
}

/** The add events of the fid's active signers (of one key, when given), in chain order. */
export async function activeSignerEvents(
  db: Db,
  fid: number,
  key: Uint8Array | undefined,
): Promise<Uint8Array[]> {
  let query = db
    .selectFrom("hub_signers as s")
    .innerJoin("hub_onchain_events as e", (join) =>
      join
        .onRef("e.fid", "=", "s.fid")
        .on("e.type", "=", OnChainEventType.EVENT_TYPE_SIGNER)
        .onRef("e.signer", "=", "s.key"),
    )
    .select(["e.event", "e.block_number", "e.log_index"])
    .where("s.fid", "=", fid)
    .where("s.event_type", "=", SignerEventType.ADD);
  if (key !== undefined) query = query.where("s.key", "=", key);
  const rows = await query.orderBy("e.block_number").orderBy("e.log_index").execute();
  // The join finds every event of an active key; its add is the one that made it active.
  return rows.map((row) => row.event);
}

export async function idRegisterEventByAddress(db: Db, address: Uint8Array): Promise<Uint8Array | undefined> {
  const row = await db
    .selectFrom("hub_onchain_events")
    .select("event")
    .where("address", "=", address)
    .orderBy("block_number", "desc")
    .orderBy("log_index", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.event;
}

/** Which of `fids` are registered. */
export async function registeredFids(db: Db, fids: readonly number[]): Promise<Set<number>> {
  const rows = await runCompiled(
    db,
    "registeredFids",
    () => db.selectFrom("hub_fids").select("fid").where("fid", "in", fids),
    fids,
  );
  return new Set(rows.map((row) => row.fid));
}

export async function isRegisteredFid(db: Db, fid: number): Promise<boolean> {
  return (
    (await db.selectFrom("hub_fids").select("fid").where("fid", "=", fid).executeTakeFirst()) !== undefined
  );
}

/** The keys of one key type the fid has added and not removed (auth addresses: key type 2). */
export async function activeKeysOfType(db: Db, fid: number, keyType: number): Promise<Uint8Array[]> {
  const rows = await db
    .selectFrom("hub_signers")
    .select("key")
    .where("fid", "=", fid)
    .where("event_type", "=", SignerEventType.ADD)
    .where("key_type", "=", keyType)
    .execute();
  return rows.map((row) => row.key);
}

/** The fid's custody address, if it is registered. */
export async function custodyOf(db: Db, fid: number): Promise<Uint8Array | undefined> {
  return (await db.selectFrom("hub_fids").select("custody").where("fid", "=", fid).executeTakeFirst())
    ?.custody;
}
