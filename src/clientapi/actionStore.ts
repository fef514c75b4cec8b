import type { Insertable, Selectable } from "kysely";
import { keysetPage } from "./keysetPage.js";
import type { Keyset } from "./paging.js";
import type { ActionKind, ClientApiDb, ClientApiTables } from "./tables.js";

export type ActionRow = Selectable<ClientApiTables["api_actions"]>;

/** The `top` list of discover-actions: "ordered by total users", i.e. installs; `after` is (installs, id). */
export function topActions(db: ClientApiDb, kind: ActionKind, after: Keyset | undefined, limit: number) {
  return db
    .selectFrom("api_actions")
    .selectAll()
    .where("kind", "=", kind)
    .$call((query) => keysetPage(query, "install_count", "desc", after, limit))
    .execute();
}

/** The featured composer actions in their curated order; `after` is (rank, id). */
export function featuredActions(db: ClientApiDb, after: Keyset | undefined, limit: number) {
  return db
    .selectFrom("api_actions")
    .selectAll()
    .where("featured_rank", "is not", null)
    .$call((query) => keysetPage(query, "featured_rank", "asc", after, limit))
    .execute();
}

export function listActions(db: ClientApiDb): Promise<ActionRow[]> {
  return db.selectFrom("api_actions").selectAll().orderBy("id").execute();
}

export function getAction(db: ClientApiDb, id: number): Promise<ActionRow | undefined> {
  return db.selectFrom("api_actions").selectAll().where("id", "=", id).executeTakeFirst();
}

export function actionIdByUrl(
  db: ClientApiDb,
  kind: ActionKind,
  actionUrl: string,
): Promise<number | undefined> {
  return db
    .selectFrom("api_actions")
    .select("id")
    .where("kind", "=", kind)
    .where("action_url", "=", actionUrl)
    .executeTakeFirst()
    .then((row) => row?.id);
}

export async function insertAction(
  trx: ClientApiDb,
  row: Insertable<ClientApiTables["api_actions"]>,
): Promise<number> {
  const inserted = await trx.insertInto("api_actions").values(row).returning("id").executeTakeFirstOrThrow();
  return inserted.id;
}

/** Returns whether the install was new. */
export async function install(trx: ClientApiDb, actionId: number, fid: number, at: number): Promise<boolean> {
  const inserted = await trx
    .insertInto("api_action_installs")
    .values({ action_id: actionId, fid, installed_at: at })
    .onConflict((oc) => oc.columns(["action_id", "fid"]).doNothing())
    .returning("fid")
    .executeTakeFirst();
  if (!inserted) return false;
  await trx
    .updateTable("api_actions")
    .set((eb) => ({ install_count: eb("install_count", "+", 1) }))
    .where("id", "=", actionId)
    .execute();
  return true;
}

export async function uninstall(trx: ClientApiDb, actionId: number, fid: number): Promise<boolean> {
  const deleted = await trx
    .deleteFrom("api_action_installs")
    .where("action_id", "=", actionId)
    .where("fid", "=", fid)
    .returning("fid")
    .executeTakeFirst();
  if (!deleted) return false;
  await trx
    .updateTable("api_actions")
    .set((eb) => ({ install_count: eb("install_count", "-", 1) }))
    .where("id", "=", actionId)
    .execute();
  return true;
}

export async function lastFeaturedRank(trx: ClientApiDb): Promise<number> {
  const row = await trx
    .selectFrom("api_actions")
    .select((eb) => eb.fn.max("featured_rank").as("rank"))
    .executeTakeFirst();
  return row?.rank === null || row?.rank === undefined ? 0 : Number(row.rank);
}

export async function setFeaturedRank(
  trx: ClientApiDb,
  actionId: number,
  rank: number | null,
): Promise<void> {
  await trx.updateTable("api_actions").set({ featured_rank: rank }).where("id", "=", actionId).execute();
}
