/** Small persistent facts of the hub (follower positions, its peer id), shared by all its processes. */
import type { Kysely } from "kysely";
import type { HubTables } from "./tables.js";

export async function readState(db: Kysely<HubTables>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom("hub_state").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

export async function writeState(db: Kysely<HubTables>, key: string, value: string): Promise<void> {
  await db
    .insertInto("hub_state")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
}
