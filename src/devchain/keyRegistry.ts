/**
 * The key registry: a fid's Ed25519 signers with the metadata they were added with. A key is added
 * once per fid: once removed, it can never be added again. Rule checks see pending adds and removes
 * too; reads for other parts see mined ones only.
 */
import { hexToBytes } from "viem";
import { OnChainEventType, SignerEventType } from "../protocol/generated/onchain_event.js";
import { KEY_TYPE_ED25519, METADATA_TYPE_SIGNED_KEY_REQUEST } from "../protocol/contracts.js";
import { toHex } from "../protocol/hex.js";
import type { Hex, KeyAddRequest } from "../interfaces/chain.js";
import { DevchainError } from "../interfaces/chainErrors.js";
import type { MineTransaction } from "./events.js";
import { requireFid } from "./idRegistry.js";
import type { DevchainDb } from "./tables.js";

/** The KeyRegistry's event version (docs/reference/protocol-wire.md §4). */
const KEY_REGISTRY_VERSION = 2;

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

export interface SignerRow {
  fid: number;
  key: Uint8Array;
  keyType: number;
  metadataType: number;
  metadata: Uint8Array;
  /** Pending or mined remove. */
  removeSubmitted: boolean;
}

export type NewSigner = Omit<SignerRow, "removeSubmitted">;

export function parseKey(value: string): Uint8Array {
  if (!HEX_BYTES.test(value) || value.length !== 66) {
    throw new DevchainError(
      "invalid_key",
      "key must be a 32-byte Ed25519 public key as 0x hex (64 hex digits)",
    );
  }
  return hexToBytes(value as Hex);
}

/**
 * A key add, checked before its transaction starts. The KeyRegistry's key type 1 (Ed25519) with
 * validator type 1 (signed key request) is the only pair deployed; metadata is kept as given.
 */
export function parseKeyAdd(request: KeyAddRequest): NewSigner {
  const keyType = request.keyType ?? KEY_TYPE_ED25519;
  const metadataType = request.metadataType ?? METADATA_TYPE_SIGNED_KEY_REQUEST;
  if (keyType !== KEY_TYPE_ED25519 || metadataType !== METADATA_TYPE_SIGNED_KEY_REQUEST) {
    throw new DevchainError(
      "unsupported_key_type",
      `only keyType ${KEY_TYPE_ED25519} with metadataType ${METADATA_TYPE_SIGNED_KEY_REQUEST} has a validator on this chain`,
    );
  }
  const key = parseKey(request.key);
  const metadata = request.metadata ?? "0x";
  if (!HEX_BYTES.test(metadata)) throw new DevchainError("bad_request", "metadata must be 0x hex bytes");
  return { fid: request.fid, key, keyType, metadataType, metadata: hexToBytes(metadata) };
}

const signerColumns = ["fid", "key", "key_type", "metadata_type", "metadata", "remove_tx_seq"] as const;

function toSignerRow(row: {
  fid: number;
  key: Uint8Array;
  key_type: number;
  metadata_type: number;
  metadata: Uint8Array;
  remove_tx_seq: number | null;
}): SignerRow {
  return {
    fid: Number(row.fid),
    key: new Uint8Array(row.key),
    keyType: row.key_type,
    metadataType: row.metadata_type,
    metadata: new Uint8Array(row.metadata),
    removeSubmitted: row.remove_tx_seq !== null,
  };
}

async function signerRow(db: DevchainDb, fid: number, key: Uint8Array): Promise<SignerRow | undefined> {
  const row = await db
    .selectFrom("chain_signers")
    .select(signerColumns)
    .where("fid", "=", fid)
    .where("key", "=", key)
    .executeTakeFirst();
  return row && toSignerRow(row);
}

/** Mined adds without a mined remove, in the order they were added. */
export async function activeSigners(db: DevchainDb, fid: number): Promise<SignerRow[]> {
  const rows = await db
    .selectFrom("chain_signers")
    .select(signerColumns)
    .where("fid", "=", fid)
    .where("added_block", "is not", null)
    .where("removed_block", "is", null)
    .orderBy("add_tx_seq")
    .execute();
  return rows.map(toSignerRow);
}

/** Adds `signer.key` to its fid in transaction `txSeq`; returns the fid. */
export async function recordKeyAdd(trx: DevchainDb, txSeq: number, signer: NewSigner): Promise<number> {
  const { fid, key } = signer;
  await requireFid(trx, fid);
  const existing = await signerRow(trx, fid, key);
  if (existing?.removeSubmitted) {
    throw new DevchainError(
      "key_removed",
      `key ${toHex(key)} was removed from fid ${fid} and cannot be added again`,
    );
  }
  if (existing) throw new DevchainError("key_exists", `key ${toHex(key)} is already added to fid ${fid}`);
  await trx
    .insertInto("chain_signers")
    .values({
      fid,
      key,
      key_type: signer.keyType,
      metadata_type: signer.metadataType,
      metadata: signer.metadata,
      add_tx_seq: txSeq,
      added_block: null,
      remove_tx_seq: null,
      removed_block: null,
    })
    .execute();
  return fid;
}

/** Removes an active key from `fid` in transaction `txSeq`; returns the fid. */
export async function recordKeyRemove(
  trx: DevchainDb,
  txSeq: number,
  fid: number,
  key: Uint8Array,
): Promise<number> {
  await requireFid(trx, fid);
  const existing = await signerRow(trx, fid, key);
  if (!existing || existing.removeSubmitted) {
    throw new DevchainError("key_not_active", `key ${toHex(key)} is not an active key of fid ${fid}`);
  }
  await trx
    .updateTable("chain_signers")
    .set({ remove_tx_seq: txSeq })
    .where("fid", "=", fid)
    .where("key", "=", key)
    .execute();
  return fid;
}

export const mineKeyAdd: MineTransaction = async (trx, txSeq, block) => {
  await trx
    .updateTable("chain_signers")
    .set({ added_block: block.number })
    .where("add_tx_seq", "=", txSeq)
    .execute();
  const row = await trx
    .selectFrom("chain_signers")
    .select(signerColumns)
    .where("add_tx_seq", "=", txSeq)
    .executeTakeFirstOrThrow();
  const signer = toSignerRow(row);
  return {
    type: OnChainEventType.EVENT_TYPE_SIGNER,
    version: KEY_REGISTRY_VERSION,
    signerEventBody: {
      key: signer.key,
      keyType: signer.keyType,
      eventType: SignerEventType.ADD,
      metadata: signer.metadata,
      metadataType: signer.metadataType,
    },
  };
};

export const mineKeyRemove: MineTransaction = async (trx, txSeq, block) => {
  await trx
    .updateTable("chain_signers")
    .set({ removed_block: block.number })
    .where("remove_tx_seq", "=", txSeq)
    .execute();
  const row = await trx
    .selectFrom("chain_signers")
    .select("key")
    .where("remove_tx_seq", "=", txSeq)
    .executeTakeFirstOrThrow();
  return {
    type: OnChainEventType.EVENT_TYPE_SIGNER,
    version: KEY_REGISTRY_VERSION,
    signerEventBody: {
      key: new Uint8Array(row.key),
      keyType: 0,
      eventType: SignerEventType.REMOVE,
      metadata: new Uint8Array(0),
      metadataType: 0,
    },
  };
};
