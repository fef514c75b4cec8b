/**
 * Keys added by KEY_ADD messages as the hub holds them, and the nonce counters of key messages.
 * Merging them is merge/gaslessKeys.ts.
 */
import type { Kysely } from "kysely";
import type { HubTables } from "./tables.js";

type Db = Kysely<HubTables>;

export type GaslessKeyRow = HubTables["hub_gasless_keys"];

/** The key's row for the fid, if it holds it. */
export function gaslessKey(db: Db, fid: number, key: Uint8Array): Promise<GaslessKeyRow | undefined> {
  return db
    .selectFrom("hub_gasless_keys")
    .selectAll()
    .where("fid", "=", fid)
    .where("key", "=", key)
    .executeTakeFirst();
}

/** The fid holding the key by message, if any: a key belongs to one fid at most. */
export async function gaslessKeyHolder(db: Db, key: Uint8Array): Promise<number | undefined> {
  return (await db.selectFrom("hub_gasless_keys").select("fid").where("key", "=", key).executeTakeFirst())
    ?.fid;
}

export async function gaslessKeyCount(db: Db, fid: number): Promise<number> {
  const row = await db
    .selectFrom("hub_gasless_keys")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("fid", "=", fid)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The fid's keys by message in key order (a fid holds MAX_GASLESS_KEYS_PER_FID at most). */
export function gaslessKeysOf(db: Db, fid: number): Promise<GaslessKeyRow[]> {
  return db.selectFrom("hub_gasless_keys").selectAll().where("fid", "=", fid).orderBy("key").execute();
}

/** Scopes as stored: bit n for MessageType n (every admissible type is below 31). */
export function scopeBits(scopes: readonly number[]): number {
  let bits = 0;
  for (const scope of scopes) bits |= 1 << scope;
  return bits;
}

/** The MessageType numbers of stored scopes, ascending. */
export function scopesOf(bits: number): number[] {
  const scopes: number[] = [];
  for (let type = 0; type < 31; type++) if ((bits & (1 << type)) !== 0) scopes.push(type);
  return scopes;
}

/** The fid's user nonce: the last KEY_ADD's or custody KEY_REMOVE's (0 before the first). */
export async function userNonce(db: Db, fid: number): Promise<number> {
  const row = await db
    .selectFrom("hub_key_nonces")
    .select("user_nonce")
    .where("fid", "=", fid)
    .executeTakeFirst();
  return row?.user_nonce ?? 0;
}

/** The app nonces of many fids (0 for those that never had one). */
export async function appNonces(db: Db, fids: readonly number[]): Promise<Map<number, number>> {
  const nonces = new Map(fids.map((fid) => [fid, 0]));
  if (fids.length === 0) return nonces;
  const rows = await db
    .selectFrom("hub_key_nonces")
    .select(["fid", "app_nonce"])
    .where("fid", "in", fids)
    .execute();
  for (const row of rows) nonces.set(row.fid, row.app_nonce);
  return nonces;
}
