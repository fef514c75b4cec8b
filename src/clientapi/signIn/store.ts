/** The sign-in channels' queries (table api_sign_in_channels). */
import type { Insertable, Selectable, Updateable } from "kysely";
import type { ClientApiDb, ClientApiTables } from "../tables.js";

type Table = ClientApiTables["api_sign_in_channels"];
export type ChannelRow = Selectable<Table>;

export async function insertChannel(db: ClientApiDb, row: Insertable<Table>): Promise<void> {
  await db.insertInto("api_sign_in_channels").values(row).execute();
}

/** The channel, if it is still open at `now` (Unix seconds). */
export function liveChannel(db: ClientApiDb, token: string, now: number): Promise<ChannelRow | undefined> {
  return db
    .selectFrom("api_sign_in_channels")
    .selectAll()
    .where("token", "=", token)
    .where("expires_at", ">", now)
    .executeTakeFirst();
}

/** Completes the channel if it is still pending and open; returns it completed, or undefined. */
export function completeChannel(
  db: ClientApiDb,
  token: string,
  now: number,
  completion: Updateable<Table>,
): Promise<ChannelRow | undefined> {
  return db
    .updateTable("api_sign_in_channels")
    .set({ ...completion, state: "completed" })
    .where("token", "=", token)
    .where("state", "=", "pending")
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Deletes the channel if it is completed and still open, returning it: whoever deletes it is the one
 * caller that gets the completed answer.
 */
export function takeCompletedChannel(
  db: ClientApiDb,
  token: string,
  now: number,
): Promise<ChannelRow | undefined> {
  return db
    .deleteFrom("api_sign_in_channels")
    .where("token", "=", token)
    .where("state", "=", "completed")
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the channels closed at `now`; returns how many. */
export async function deleteChannelsExpiredAt(db: ClientApiDb, now: number): Promise<number> {
  const deleted = await db
    .deleteFrom("api_sign_in_channels")
    .where("expires_at", "<=", now)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
