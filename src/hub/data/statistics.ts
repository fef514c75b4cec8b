/** Counts over the hub's tables: per-fid store counts, reactors per author, and the totals /v1/info reports. */
import { type Kysely, sql } from "kysely";
import { MessageType } from "../../protocol/generated/message.js";
import type { Database } from "../../storage/index.js";
import { StoreType } from "./keys.js";
import type { HubTables } from "./tables.js";

type Db = Kysely<HubTables>;

export async function storeCounts(db: Db, fid: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("hub_store_counts")
    .select(["store", "count"])
    .where("fid", "=", fid)
    .execute();
  return new Map(rows.map((row) => [row.store, row.count]));
}

export async function reactorsByAuthor(db: Db, sinceProtocolSeconds: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("hub_messages")
    .select(["target_fid", sql<number | string>`count(distinct fid)`.as("reactors")])
    .where("store", "=", StoreType.REACTIONS)
    .where("type", "=", MessageType.REACTION_ADD)
    .where("target_fid", "is not", null)
    .where("timestamp", ">=", sinceProtocolSeconds)
    .whereRef("fid", "!=", "target_fid")
    .groupBy("target_fid")
    .execute();
  return new Map(rows.map((row) => [Number(row.target_fid), Number(row.reactors)]));
}

export async function statistics(db: Db) {
  const messages = await db
    .selectFrom("hub_store_counts")
    .select(sql<number | string | null>`sum(count)`.as("n"))
    .executeTakeFirst();
  const onChain = await db
    .selectFrom("hub_onchain_events")
    .select(sql<number | string>`count(*)`.as("n"))
    .executeTakeFirst();
  const names = await db
    .selectFrom("hub_fname_proofs")
    .select(sql<number | string>`count(*)`.as("n"))
    .executeTakeFirst();
  const fids = await db
    .selectFrom("hub_fids")
    .select(sql<number | string>`count(*)`.as("n"))
    .executeTakeFirst();
  return {
    numMessages: Number(messages?.n ?? 0),
    numFidEvents: Number(onChain?.n ?? 0),
    numFnameEvents: Number(names?.n ?? 0),
    numFidRegistrations: Number(fids?.n ?? 0),
  };
}

/** Bytes the database takes on disk (approximately, as the reference reports it). */
export async function approximateSize(database: Database<HubTables>): Promise<number> {
  const query =
    database.engine === "sqlite"
      ? sql<{
          n: number | string;
        }>`select page_count * page_size as n from pragma_page_count(), pragma_page_size()`
      : sql<{ n: number | string }>`select pg_database_size(current_database()) as n`;
  const result = await query.execute(database.db);
  return Number(result.rows[0]?.n ?? 0);
}
