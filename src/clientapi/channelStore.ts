import type { Insertable, Selectable, Updateable } from "kysely";
import type { ClientApiDb, ClientApiTables } from "./tables.js";

export type ChannelRow = Selectable<ClientApiTables["api_channels"]>;
export type ChannelPatch = Updateable<ClientApiTables["api_channels"]>;

export function listChannels(db: ClientApiDb): Promise<ChannelRow[]> {
  return db.selectFrom("api_channels").selectAll().orderBy("created_at").orderBy("id").execute();
}

export function getChannel(db: ClientApiDb, id: string): Promise<ChannelRow | undefined> {
  return db.selectFrom("api_channels").selectAll().where("id", "=", id).executeTakeFirst();
}

export function channelsByIds(db: ClientApiDb, ids: string[]): Promise<ChannelRow[]> {
  return db.selectFrom("api_channels").selectAll().where("id", "in", ids).execute();
}

export function channelIdByUrl(db: ClientApiDb, url: string): Promise<string | undefined> {
  return db
    .selectFrom("api_channels")
    .select("id")
    .where("url", "=", url)
    .executeTakeFirst()
    .then((row) => row?.id);
}

export async function insertChannel(
  trx: ClientApiDb,
  row: Insertable<ClientApiTables["api_channels"]>,
): Promise<void> {
  await trx.insertInto("api_channels").values(row).execute();
  await channelsChanged(trx);
}

export async function updateChannel(trx: ClientApiDb, id: string, patch: ChannelPatch): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await trx.updateTable("api_channels").set(patch).where("id", "=", id).execute();
  await channelsChanged(trx);
}

export async function channelsVersion(db: ClientApiDb): Promise<number> {
  const row = await db
    .selectFrom("api_versions")
    .select("version")
    .where("name", "=", "channels")
    .executeTakeFirstOrThrow();
  return row.version;
}

/** Every write to api_channels calls this in its transaction, so that cached channels are dropped. */
export async function channelsChanged(trx: ClientApiDb): Promise<void> {
  await trx
    .updateTable("api_versions")
    .set((eb) => ({ version: eb("version", "+", 1) }))
    .where("name", "=", "channels")
    .execute();
}
