import type { ClientApiDb } from "./tables.js";

/** The rule's fids the operator did not revoke, and the fids the operator granted. */
export async function powerBadgeHolders(db: ClientApiDb): Promise<number[]> {
  const rows = await db
    .selectFrom("api_power_badge_computed as c")
    .select("c.fid")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("api_power_badge_overrides as o")
            .select("o.fid")
            .whereRef("o.fid", "=", "c.fid")
            .where("o.granted", "=", 0),
        ),
      ),
    )
    .union(db.selectFrom("api_power_badge_overrides").select("fid").where("granted", "=", 1))
    .orderBy("fid")
    .execute();
  return rows.map((row) => row.fid);
}

export function computedBadges(db: ClientApiDb): Promise<number[]> {
  return db
    .selectFrom("api_power_badge_computed")
    .select("fid")
    .orderBy("fid")
    .execute()
    .then((rows) => rows.map((row) => row.fid));
}

export function badgeOverrides(db: ClientApiDb): Promise<{ fid: number; granted: number; set_at: number }[]> {
  return db.selectFrom("api_power_badge_overrides").selectAll().orderBy("fid").execute();
}

export async function setBadgeOverride(
  trx: ClientApiDb,
  fid: number,
  granted: boolean,
  at: number,
): Promise<void> {
  const value = { granted: granted ? 1 : 0, set_at: at };
  await trx
    .insertInto("api_power_badge_overrides")
    .values({ fid, ...value })
    .onConflict((oc) => oc.column("fid").doUpdateSet(value))
    .execute();
}

export async function clearBadgeOverride(trx: ClientApiDb, fid: number): Promise<boolean> {
  const deleted = await trx
    .deleteFrom("api_power_badge_overrides")
    .where("fid", "=", fid)
    .returning("fid")
    .executeTakeFirst();
  return deleted !== undefined;
}

export async function hasBadgeRun(db: ClientApiDb, slot: number): Promise<boolean> {
  const row = await db
    .selectFrom("api_power_badge_runs")
    .select("id")
    .where("slot", "=", slot)
    .executeTakeFirst();
  return row !== undefined;
}

export function lastBadgeRun(db: ClientApiDb) {
  return db
    .selectFrom("api_power_badge_runs")
    .selectAll()
    .orderBy("ran_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
}

/** Replaces the rule's result and records the run. */
export async function replaceComputedBadges(
  trx: ClientApiDb,
  fids: number[],
  slot: number | null,
  ranAt: number,
): Promise<void> {
  await trx.deleteFrom("api_power_badge_computed").execute();
  for (let i = 0; i < fids.length; i += 500) {
    const chunk = fids.slice(i, i + 500);
    await trx
      .insertInto("api_power_badge_computed")
      .values(chunk.map((fid) => ({ fid })))
      .execute();
  }
  await trx
    .insertInto("api_power_badge_runs")
    .values({ slot, ran_at: ranAt, computed_count: fids.length })
    .execute();
}
