/**
 * KEY_ADD and KEY_REMOVE (docs/reference/gasless-signers.md): a custody address adds an Ed25519
 * key to its fid with a signed message instead of a transaction, limited to the message types it
 * names and to a sliding lifetime; the custody address or the key itself removes it. They are not
 * kept in a store of messages but as the fid's keys (data/gaslessKeys.ts), and checked here in the
 * successor node's order and with its sentences. Their EIP-712 signatures were recovered by the
 * verifier threads (`KeyAuthority`); this compares what they recovered with the custody addresses
 * the hub holds, under the fid's lock.
 */
import { HubEventType } from "../../protocol/generated/hub_event.js";
import { MessageType, type Message } from "../../protocol/generated/message.js";
import { HubError } from "../../protocol/errors.js";
import { toHex } from "../../protocol/hex.js";
import { decodeMessage } from "../../protocol/message.js";
import { currentProtocolTime } from "../../protocol/time.js";
import { invalid } from "../../protocol/validation/errors.js";
import {
  KEY_REMOVE_BY_CUSTODY,
  MAX_GASLESS_KEYS_PER_FID,
  type KeyAuthority,
} from "../../protocol/validation/index.js";
import { withBytes } from "../data/events.js";
import {
  gaslessKey,
  gaslessKeyCount,
  gaslessKeyHolder,
  scopeBits,
  type GaslessKeyRow,
} from "../data/gaslessKeys.js";
import { custodyOf, isActiveSigner } from "../data/onchain.js";
import type { MergeContext } from "./context.js";
import { revokeSigner } from "./stores/crdt.js";
import type { Incoming } from "./stores/rows.js";

/** A key's last use is written at most this often (seconds): a busy key does not write on every message. */
const LAST_USED_STEP_SECONDS = 300;

export function isKeyMessage(type: MessageType): boolean {
  return type === MessageType.KEY_ADD || type === MessageType.KEY_REMOVE;
}

/** Refuses a message of a type the key added by message may not sign. */
export function outOfScope(key: GaslessKeyRow, type: MessageType): HubError | undefined {
  if ((key.scopes & (1 << type)) !== 0) return undefined;
  return invalid(`message type ${type} is not in the scope of the gasless signer`);
}

/** Refuses a key whose lifetime ran out: its last use plus its TTL before now (protocol seconds). */
export function expired(key: GaslessKeyRow, nowMs: number): HubError | undefined {
  const now = currentProtocolTime(nowMs);
  if (key.last_used_at + key.ttl >= now) return undefined;
  return invalid(
    `gasless-key last_used_at expired: stored=${key.last_used_at} + ttl=${key.ttl} < current_block_timestamp=${now}`,
  );
}

/** Slides the key's lifetime forward to the message it just signed. */
export async function markUsed(ctx: MergeContext, key: GaslessKeyRow, timestamp: number): Promise<void> {
  if (timestamp <= key.last_used_at + LAST_USED_STEP_SECONDS) return;
  await ctx.trx
    .updateTable("hub_gasless_keys")
    .set({ last_used_at: timestamp })
    .where("fid", "=", key.fid)
    .where("key", "=", key.key)
    .execute();
  key.last_used_at = timestamp;
}

/** Merges a KEY_ADD or KEY_REMOVE whose signatures recovered `authority`; throws HubError when refused. */
export function mergeKeyMessage(
  ctx: MergeContext,
  incoming: Incoming,
  authority: KeyAuthority,
): Promise<void> {
  return incoming.message.data.type === MessageType.KEY_ADD
    ? mergeKeyAdd(ctx, incoming, authority)
    : mergeKeyRemove(ctx, incoming, authority);
}

async function requireCustody(ctx: MergeContext, fid: number, authority: KeyAuthority): Promise<void> {
  const custody = await custodyOf(ctx.trx, fid);
  if (custody === undefined || !authority.custody.includes(toHex(custody)))
    throw invalid("invalid signature");
}

async function mergeKeyAdd(ctx: MergeContext, incoming: Incoming, authority: KeyAuthority): Promise<void> {
  const data = incoming.message.data;
  const body = data.keyAddBody!;
  const request = authority.request!;
  const requestCustody = await custodyOf(ctx.trx, request.fid);
  if (requestCustody === undefined) {
    throw invalid("SignedKeyRequest metadata is malformed or signature does not verify");
  }
  if (toHex(requestCustody) !== request.signer) {
    throw invalid("requestSigner does not match custody address of requestFid");
  }
  await requireCustody(ctx, data.fid, authority);
  if (await isActiveSigner(ctx.trx, data.fid, body.key)) {
    throw invalid("key is already registered onchain for this fid");
  }
  const holder = await gaslessKeyHolder(ctx.trx, body.key);
  if (holder !== undefined && holder !== data.fid) throw invalid("key is already claimed by a different fid");
  const prior = holder === undefined ? undefined : await gaslessKey(ctx.trx, data.fid, body.key);
  if (prior !== undefined && prior.request_fid !== request.fid) {
    throw invalid("key is already registered for this fid by a different requesting fid");
  }
  if (prior === undefined && (await gaslessKeyCount(ctx.trx, data.fid)) >= MAX_GASLESS_KEYS_PER_FID) {
    throw invalid(`active-key cap exceeded: ${MAX_GASLESS_KEYS_PER_FID} keys per FID`);
  }
  await spendNonce(ctx, data.fid, "user_nonce", body.nonce);
  const row: GaslessKeyRow = {
    fid: data.fid,
    key: body.key,
    request_fid: request.fid,
    scopes: scopeBits(body.scopes),
    ttl: body.ttl,
    nonce: body.nonce,
    added_at: data.timestamp,
    last_used_at: data.timestamp,
    message: incoming.bytes,
  };
  await ctx.trx
    .insertInto("hub_gasless_keys")
    .values(row)
    .onConflict((oc) =>
      oc.columns(["fid", "key"]).doUpdateSet({
        scopes: row.scopes,
        ttl: row.ttl,
        nonce: row.nonce,
        added_at: row.added_at,
        last_used_at: row.last_used_at,
        message: row.message,
      }),
    )
    .execute();
  pushMerged(ctx, incoming, prior);
}

async function mergeKeyRemove(ctx: MergeContext, incoming: Incoming, authority: KeyAuthority): Promise<void> {
  const data = incoming.message.data;
  const body = data.keyRemoveBody!;
  const row = await gaslessKey(ctx.trx, data.fid, body.key);
  if (row === undefined) throw invalid("key is not registered for this fid");
  if (body.signatureType === KEY_REMOVE_BY_CUSTODY) {
    await requireCustody(ctx, data.fid, authority);
    await spendNonce(ctx, data.fid, "user_nonce", body.nonce);
  } else {
    // A key removing itself spends its app's nonce, so that an app can revoke every key it holds.
    await spendNonce(ctx, row.request_fid, "app_nonce", body.nonce);
  }
  await ctx.trx
    .deleteFrom("hub_gasless_keys")
    .where("fid", "=", data.fid)
    .where("key", "=", body.key)
    .execute();
  pushMerged(ctx, incoming, row);
  // As an on-chain removal does here (the successor node keeps them): docs/hub.md, choices.
  await revokeSigner(ctx, data.fid, body.key);
}

/** The key message's merge event; the KEY_ADD it replaces or removes goes with it, as a deleted message. */
function pushMerged(ctx: MergeContext, incoming: Incoming, replaced: GaslessKeyRow | undefined): void {
  const deletedMessages: Message[] =
    replaced === undefined ? [] : [withBytes(decodeMessage(replaced.message).message, replaced.message)];
  ctx.events.push({
    type: HubEventType.MERGE_MESSAGE,
    mergeMessageBody: { message: incoming.message, deletedMessages },
  });
}

/** Nonces only go up: each must exceed the last one the counter accepted (0 before the first). */
async function spendNonce(
  ctx: MergeContext,
  fid: number,
  counter: "user_nonce" | "app_nonce",
  nonce: number,
): Promise<void> {
  const row = await ctx.trx
    .selectFrom("hub_key_nonces")
    .select(counter)
    .where("fid", "=", fid)
    .executeTakeFirst();
  const stored = row?.[counter] ?? 0;
  if (nonce <= stored) {
    throw new HubError(
      "bad_request.conflict",
      `gasless-key nonce ${nonce} is not greater than stored nonce ${stored}`,
    );
  }
  await ctx.trx
    .insertInto("hub_key_nonces")
    .values({ fid, user_nonce: 0, app_nonce: 0, [counter]: nonce })
    .onConflict((oc) => oc.column("fid").doUpdateSet({ [counter]: nonce }))
    .execute();
}
