import type { Insertable, Selectable, Updateable } from "kysely";
import type { ClientApiDb, ClientApiTables } from "../tables.js";
import { type KeyRequestState, mayMove } from "./states.js";

export type KeyRequestRow = Selectable<ClientApiTables["api_signed_key_requests"]>;

export async function insertKeyRequest(
  trx: ClientApiDb,
  row: Insertable<ClientApiTables["api_signed_key_requests"]>,
): Promise<void> {
  await trx.insertInto("api_signed_key_requests").values(row).execute();
}

export function getKeyRequest(db: ClientApiDb, token: string): Promise<KeyRequestRow | undefined> {
  return db.selectFrom("api_signed_key_requests").selectAll().where("token", "=", token).executeTakeFirst();
}

/** The request made earlier from the same signed {requestFid, key, deadline}, if any. */
export function sameKeyRequest(
  trx: ClientApiDb,
  request: { request_fid: number; key: string; deadline: number; signature: string },
): Promise<KeyRequestRow | undefined> {
  return trx
    .selectFrom("api_signed_key_requests")
    .selectAll()
    .where("request_fid", "=", request.request_fid)
    .where("key", "=", request.key)
    .where("deadline", "=", request.deadline)
    .where("signature", "=", request.signature)
    .executeTakeFirst();
}

/** Deletes requests whose deadline is before `before`, except those waiting for the chain. */
export async function deleteKeyRequestsBefore(db: ClientApiDb, before: number): Promise<number> {
  const deleted = await db
    .deleteFrom("api_signed_key_requests")
    .where("deadline", "<", before)
    .where("state", "in", ["pending", "completed"])
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

export function keyRequestsIn(db: ClientApiDb, state: KeyRequestState): Promise<KeyRequestRow[]> {
  return db.selectFrom("api_signed_key_requests").selectAll().where("state", "=", state).execute();
}

/** How many requests are in each state (states with none are left out). */
export async function countKeyRequestsByState(db: ClientApiDb): Promise<Map<KeyRequestState, number>> {
  const rows = await db
    .selectFrom("api_signed_key_requests")
    .select((eb) => ["state", eb.fn.countAll<number | string>().as("n")])
    .groupBy("state")
    .execute();
  return new Map(rows.map((row) => [row.state, Number(row.n)]));
}

/** Moves a request on only if it is still in `from`; returns whether it did. */
export async function moveKeyRequest(
  db: ClientApiDb,
  token: string,
  from: KeyRequestState,
  change: Updateable<ClientApiTables["api_signed_key_requests"]>,
): Promise<boolean> {
  const to = change.state as KeyRequestState | undefined;
  if (to !== undefined && to !== from && !mayMove(from, to))
    throw new Error(`a signed key request cannot move from ${from} to ${to} (states.ts)`);
  const updated = await db
    .updateTable("api_signed_key_requests")
    .set(change)
    .where("token", "=", token)
    .where("state", "=", from)
    .returning("token")
    .executeTakeFirst();
  return updated !== undefined;
}

// Key gateway nonces: the nonce each approval's `Add` is signed with, per custody address.

export async function gatewayNonce(db: ClientApiDb, custody: string): Promise<number> {
  const row = await db
    .selectFrom("api_gateway_nonces")
    .select("nonce")
    .where("custody", "=", custody.toLowerCase())
    .executeTakeFirst();
  return row?.nonce ?? 0;
}

/** Gives `nonce` back if nothing consumed a later one meanwhile (then the wallet fetches a new one). */
export async function restoreGatewayNonce(trx: ClientApiDb, custody: string, nonce: number): Promise<void> {
  await trx
    .updateTable("api_gateway_nonces")
    .set({ nonce })
    .where("custody", "=", custody.toLowerCase())
    .where("nonce", "=", nonce + 1)
    .execute();
}

/** Consumes `nonce` if it is still the current one; returns whether it was. */
export async function consumeGatewayNonce(
  trx: ClientApiDb,
  custody: string,
  nonce: number,
): Promise<boolean> {
  const address = custody.toLowerCase();
  await trx
    .insertInto("api_gateway_nonces")
    .values({ custody: address, nonce: 0 })
    .onConflict((oc) => oc.column("custody").doNothing())
    .execute();
  const updated = await trx
    .updateTable("api_gateway_nonces")
    .set({ nonce: nonce + 1 })
    .where("custody", "=", address)
    .where("nonce", "=", nonce)
    .returning("custody")
    .executeTakeFirst();
  return updated !== undefined;
}
