import type { ClientApiDb } from "./tables.js";

export function sponsorCredits(db: ClientApiDb, fid: number): Promise<number | undefined> {
  return db
    .selectFrom("api_sponsors")
    .select("credits")
    .where("fid", "=", fid)
    .executeTakeFirst()
    .then((row) => row?.credits);
}

export async function setSponsorCredits(
  trx: ClientApiDb,
  fid: number,
  credits: number,
  at: number,
): Promise<void> {
  const value = { credits, updated_at: at };
  await trx
    .insertInto("api_sponsors")
    .values({ fid, ...value })
    .onConflict((oc) => oc.column("fid").doUpdateSet(value))
    .execute();
}

/** Takes `amount` credits if the sponsor has them; returns whether it did. */
export async function chargeSponsor(
  trx: ClientApiDb,
  fid: number,
  amount: number,
  at: number,
): Promise<boolean> {
  const updated = await trx
    .updateTable("api_sponsors")
    .set((eb) => ({ credits: eb("credits", "-", amount), updated_at: at }))
    .where("fid", "=", fid)
    .where("credits", ">=", amount)
    .returning("fid")
    .executeTakeFirst();
  return updated !== undefined;
}

/** Gives back credits an undone approval took. */
export async function refundSponsor(
  trx: ClientApiDb,
  fid: number,
  amount: number,
  at: number,
): Promise<void> {
  await trx
    .updateTable("api_sponsors")
    .set((eb) => ({ credits: eb("credits", "+", amount), updated_at: at }))
    .where("fid", "=", fid)
    .execute();
}
