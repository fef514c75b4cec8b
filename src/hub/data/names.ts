/**
 * Names the hub holds: fname proofs from the registry and name-service USERNAME_PROOF messages, read
 * here, and the state checks of names (docs/reference/protocol-rules.md §3 steps 5 and 6): indexed
 * reads only, so that they may run before a message's signature is known to be good.
 */
import type { Kysely } from "kysely";
import { HubError } from "../../protocol/errors.js";
import { MessageType, type MessageData } from "../../protocol/generated/message.js";
import { UserNameType } from "../../protocol/generated/username_proof.js";
import { bytesEqual } from "../../protocol/hash.js";
import { nameKey, StoreType } from "./keys.js";
import { messageBySetKey } from "./messageReads.js";
import { custodyOf } from "./onchain.js";
import type { HubTables } from "./tables.js";

type Db = Kysely<HubTables>;

const utf8Encoder = new TextEncoder();

export async function fnameProof(db: Db, name: string) {
  return db.selectFrom("hub_fname_proofs").selectAll().where("name", "=", name).executeTakeFirst();
}

export async function fnameProofsOf(db: Db, fid: number) {
  return db.selectFrom("hub_fname_proofs").selectAll().where("fid", "=", fid).orderBy("name").execute();
}

export async function usernameProofMessages(db: Db, fid: number): Promise<Uint8Array[]> {
  const rows = await db
    .selectFrom("hub_messages")
    .select("message")
    .where("fid", "=", fid)
    .where("store", "=", StoreType.USERNAME_PROOFS)
    .orderBy("ts_hash")
    .execute();
  return rows.map((row) => row.message);
}

/** The USERNAME_PROOF message (ENS and other name-service names) holding a name, and its fid. */
export async function usernameProofByName(db: Db, target: Uint8Array) {
  return db
    .selectFrom("hub_messages")
    .select(["fid", "message"])
    .where("store", "=", StoreType.USERNAME_PROOFS)
    .where("target", "=", target)
    .executeTakeFirst();
}

/**
 * A USERNAME value must name a proof held by the message's fid (docs/reference/protocol-rules.md §3 step 5):
 * an fname proof from the registry, or for ".eth" (ENS) names a USERNAME_PROOF message.
 */
export async function usernameError(
  db: Kysely<HubTables>,
  fid: number,
  name: string,
): Promise<HubError | undefined> {
  const owner = name.endsWith(".eth")
    ? (await usernameProofByName(db, nameKey(utf8Encoder.encode(name))))?.fid
    : (await fnameProof(db, name))?.fid;
  if (owner === undefined)
    return new HubError("bad_request.validation_failure", `name ${name} is not registered`);
  if (owner !== fid)
    return new HubError("bad_request.validation_failure", `fid ${owner} does not match message fid ${fid}`);
  return undefined;
}

/**
 * Name-service (ENS, basename) proofs: the reference resolves the name on layer 1 and requires the owner to be the
 * fid's custody address or one it has verified. castnet has no layer-1 chain to resolve against, so
 * it keeps the second half: the proof's owner must be the custody address or a verified address.
 */
export async function nameServiceProofError(
  db: Kysely<HubTables>,
  data: MessageData,
): Promise<HubError | undefined> {
  const proof = data.usernameProofBody!;
  if (
    proof.type !== UserNameType.USERNAME_TYPE_NAMESERVICE_L1 &&
    proof.type !== UserNameType.USERNAME_TYPE_BASENAME
  ) {
    return undefined;
  }
  const custody = await custodyOf(db, data.fid);
  if (custody !== undefined && bytesEqual(custody, proof.owner)) return undefined;
  const verified = await messageBySetKey(
    db,
    data.fid,
    StoreType.VERIFICATIONS,
    proof.owner,
    MessageType.VERIFICATION_ADD_ETH_ADDRESS,
  );
  if (verified !== undefined) return undefined;
  return new HubError("bad_request.validation_failure", `ens name does not belong to fid: ${data.fid}`);
}
