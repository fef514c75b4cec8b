/**
 * Merge transactions. Each one locks what it may change: the fids of its messages (and, for merges
 * that reach across fids, the address or name they compete for). On PostgreSQL these are
 * transaction-scoped advisory locks taken in ascending key order, so that two hub processes on one
 * database serialise merges of the same fid and can never deadlock each other; on SQLite the
 * file's single writer (BEGIN IMMEDIATE) already serialises everything.
 */
import { type Kysely, sql } from "kysely";
import { blake3_20 } from "../protocol/hash.js";
import { type Database, serializedTransaction } from "../storage/index.js";
import type { HubTables } from "./tables.js";

// Distinct high bits per kind keep hub keys apart from each other and from the int4 hashtext()
// space the other parts' locks use: a tag in the top 23 bits of the 63, the value in the low 40.
const FID_LOCKS = 0x48_55_01n << 40n;
const NAME_LOCKS = 0x48_55_02n << 40n;
const FOLLOWER_LOCKS = 0x48_55_03n << 40n;

export function fidLock(fid: number): bigint {
  return FID_LOCKS + BigInt(fid);
}

/** For names and addresses that several fids compete for. */
export function nameLock(key: Uint8Array): bigint {
  const digest = blake3_20(key);
  let value = 0n;
  for (let i = 0; i < 5; i++) value = (value << 8n) | BigInt(digest[i]!);
  return NAME_LOCKS + value;
}

/** One per follower (chain, registry), so that only one process at a time advances it. */
export function followerLock(id: number): bigint {
  return FOLLOWER_LOCKS + BigInt(id);
}

const RETRYABLE = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 5;

export async function lockedTransaction<Result>(
  database: Database<HubTables>,
  locks: Iterable<bigint>,
  work: (trx: Kysely<HubTables>) => Promise<Result>,
): Promise<Result> {
  if (database.engine === "sqlite") return serializedTransaction(database, "hub", work);
  const sorted = [...new Set(locks)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(async (trx) => {
        if (sorted.length > 0) {
          // unnest yields the array in order, so the locks are taken in ascending order.
          await sql`select count(pg_advisory_xact_lock(k)) from unnest(${sorted}::int8[]) as k`.execute(trx);
        }
        return work(trx);
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= MAX_ATTEMPTS || typeof code !== "string" || !RETRYABLE.has(code)) throw error;
    }
  }
}
