/** Quick Auth's queries: its nonces and its signing keys (tables.ts). */
import type { Selectable } from "kysely";
import type { ClientApiDb, ClientApiTables } from "../tables.js";

export type QuickAuthKeyRow = Selectable<ClientApiTables["api_quick_auth_keys"]>;

export async function insertNonce(db: ClientApiDb, nonce: string, expiresAt: number): Promise<void> {
  await db.insertInto("api_quick_auth_nonces").values({ nonce, expires_at: expiresAt }).execute();
}

/**
 * Deletes the nonce if it is still live and says whether it was: one statement, so of two sign-ins
 * sending the same nonce at once only one deletes the row.
 */
export async function consumeNonce(db: ClientApiDb, nonce: string, now: number): Promise<boolean> {
  const deleted = await db
    .deleteFrom("api_quick_auth_nonces")
    .where("nonce", "=", nonce)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return deleted.numDeletedRows === 1n;
}

export async function deleteExpiredNonces(db: ClientApiDb, now: number): Promise<number> {
  const deleted = await db
    .deleteFrom("api_quick_auth_nonces")
    .where("expires_at", "<=", now)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** The keys in the key set at `now`: not retired, or retired less than `tokenLifetime` ago; oldest first. */
export function liveKeys(db: ClientApiDb, now: number, tokenLifetime: number): Promise<QuickAuthKeyRow[]> {
  return db
    .selectFrom("api_quick_auth_keys")
    .selectAll()
    .where((eb) => eb.or([eb("retired_at", "is", null), eb("retired_at", ">", now - tokenLifetime)]))
    .orderBy("signs_from")
    .orderBy("kid")
    .execute();
}

export async function insertKey(
  db: ClientApiDb,
  key: { kid: string; privateKey: string; createdAt: number; signsFrom: number },
): Promise<void> {
  await db
    .insertInto("api_quick_auth_keys")
    .values({
      kid: key.kid,
      private_key: key.privateKey,
      created_at: key.createdAt,
      signs_from: key.signsFrom,
      retired_at: null,
    })
    .execute();
}

/** Retires every key not yet retired, as of `at`: the time the key made with them starts signing. */
export async function retireKeys(db: ClientApiDb, at: number): Promise<void> {
  await db
    .updateTable("api_quick_auth_keys")
    .set({ retired_at: at })
    .where("retired_at", "is", null)
    .execute();
}

/** Deletes the keys whose last token expired before `now`. */
export async function deleteDeadKeys(db: ClientApiDb, now: number, tokenLifetime: number): Promise<number> {
  const deleted = await db
    .deleteFrom("api_quick_auth_keys")
    .where("retired_at", "<=", now - tokenLifetime)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
