/**
 * The one merge every store shares (docs/reference/protocol-rules.md §4): find what competes for the incoming
 * message's set key, refuse it as a duplicate or a conflict when that ranks higher, otherwise delete
 * the losers and store it, then prune the store down to its limit. Every check runs before the first
 * write, so a refused message leaves the transaction untouched.
 */
import { HubEventType } from "../../protocol/generated/hub_event.js";
import { MessageType, type Message } from "../../protocol/generated/message.js";
import { HubError } from "../../protocol/errors.js";
import { storageOf, storeCount, type MergeContext } from "../context.js";
import { addressKey, compactStateKey, nameKey, StoreType } from "../keys.js";
import { bytesEqual } from "../../protocol/hash.js";
import { decodeMessage } from "../../protocol/message.js";
import type { UserNameProof } from "../../protocol/generated/username_proof.js";
import { utf8Name } from "../../protocol/validation/names.js";
import { earliestMessage } from "../store.js";
import {
  deleteMessage,
  findBySetKey,
  findByTarget,
  insertMessage,
  MERGE_COLUMNS,
  type Incoming,
  type MergeRow,
} from "./rows.js";
import { lastWriteWins, type Competitor, type StoreSpec } from "./spec.js";
import { storeFor, usernameProofs, verifications, links } from "./index.js";

function competitor(row: MergeRow, spec: StoreSpec): Competitor {
  return { timestamp: row.timestamp, tsHash: row.ts_hash, isRemove: row.type === spec.removeType };
}

/** Refuses `me` when `existing` is the same message or outranks it. */
function mustBeat(
  existing: MergeRow,
  me: Competitor,
  ranksAbove: (a: Competitor, b: Competitor) => boolean,
  spec: StoreSpec,
): void {
  if (bytesEqual(existing.ts_hash, me.tsHash)) {
    throw new HubError("bad_request.duplicate", "message has already been merged");
  }
  const them = competitor(existing, spec);
  if (ranksAbove(them, me)) {
    throw new HubError(
      "bad_request.conflict",
      `message conflicts with a more recent ${them.isRemove ? "remove" : "add"}`,
    );
  }
}

/**
 * A name-service name moves to another fid only with its owner: castnet cannot resolve the name to
 * learn who owns it now, so a proof signed by another key must not evict the holder's.
 */
function mustHaveSameOwner(holder: MergeRow, incoming: UserNameProof): void {
  const held = decodeMessage(holder.message).message.data?.usernameProofBody;
  if (held !== undefined && bytesEqual(held.owner, incoming.owner)) return;
  throw new HubError(
    "bad_request.conflict",
    `name ${utf8Name(incoming.name)} is held by fid ${holder.fid}; castnet cannot resolve name-service names, so a proof by another owner cannot take it over`,
  );
}

/**
 * Storage admission (docs/reference/protocol-rules.md §5): the would-be-pruned guard. The engine has checked
 * that the fid has storage units (§3 step 9) before the merge.
 */
async function admit(
  ctx: MergeContext,
  store: StoreType,
  fid: number,
  tsHash: Uint8Array,
  displaced: MergeRow[],
) {
  const limit = (await storageOf(ctx, fid)).limit(store);
  const freed = displaced.filter((row) => row.fid === fid && row.store === store).length;
  if ((await storeCount(ctx, fid, store)) - freed < limit) return;
  const earliest = await earliestMessage(ctx.trx, fid, store);
  if (earliest !== undefined && Buffer.compare(tsHash, earliest.ts_hash) < 0) {
    throw new HubError("bad_request.prunable", "message would be pruned");
  }
}

/** Merges one validated message of a fid with storage units into its store; throws HubError when it is refused. */
export async function mergeMessage(ctx: MergeContext, incoming: Incoming): Promise<void> {
  const data = incoming.message.data!;
  if (data.type === MessageType.LINK_COMPACT_STATE) return mergeCompactState(ctx, incoming);
  const spec = storeFor(data.type);
  if (spec === undefined) throw new HubError("bad_request.validation_failure", "invalid message type");

  const isRemove = data.type === spec.removeType;
  const me: Competitor = { timestamp: data.timestamp, tsHash: incoming.tsHash, isRemove };
  const key = spec.setKey(data, incoming.hash);
  const displaced: MergeRow[] = [];
  const existing = await findBySetKey(ctx, data.fid, spec.store, key);
  if (existing !== undefined) {
    mustBeat(existing, me, spec.ranksAbove, spec);
    displaced.push(existing);
  }
  // An address is verified, and a name owned, by one fid at a time.
  if (spec === verifications && !isRemove) {
    for (const other of await findByTarget(
      ctx,
      spec.store,
      addressKey(data.verificationAddAddressBody!.address),
    )) {
      if (other.fid === data.fid) continue;
      mustBeat(other, me, lastWriteWins, spec);
      displaced.push(other);
    }
  }
  if (spec === usernameProofs) {
    for (const other of await findByTarget(ctx, spec.store, nameKey(data.usernameProofBody!.name))) {
      if (other.fid === data.fid) continue;
      mustHaveSameOwner(other, data.usernameProofBody!);
      mustBeat(other, me, spec.ranksAbove, spec);
      displaced.push(other);
    }
  }
  if (spec === links) await checkAgainstCompactState(ctx, incoming);
  await admit(ctx, spec.store, data.fid, incoming.tsHash, displaced);

  const deleted: Message[] = [];
  for (const row of displaced) deleted.push(await deleteMessage(ctx, row));
  const index = spec.index(data);
  await insertMessage(
    ctx,
    spec.store,
    incoming,
    key,
    // Lists show adds only: a remove keeps its subtype and target fid, not its place in by-target lists.
    isRemove ? { kind: index.kind, target: null, targetFid: index.targetFid, mentions: [] } : index,
  );
  if (spec === usernameProofs) {
    ctx.events.push({
      type: HubEventType.MERGE_USERNAME_PROOF,
      mergeUsernameProofBody: {
        usernameProof: data.usernameProofBody,
        deletedUsernameProof: deleted[0]?.data?.usernameProofBody,
        usernameProofMessage: incoming.message,
        deletedUsernameProofMessage: deleted[0],
      },
    });
  } else {
    ctx.events.push({
      type: HubEventType.MERGE_MESSAGE,
      mergeMessageBody: { message: incoming.message, deletedMessages: deleted },
    });
  }
  await pruneStore(ctx, data.fid, spec.store);
}

/**
 * Link messages at or before the fid's compact state of their type obey it
 * (docs/reference/protocol-rules.md §4) for the targets it leaves out: an add is a conflict, a remove would
 * be pruned at once. Messages for the targets it lists merge as usual.
 */
async function checkAgainstCompactState(ctx: MergeContext, incoming: Incoming): Promise<void> {
  const data = incoming.message.data!;
  const body = data.linkBody!;
  const compact = await findBySetKey(ctx, data.fid, StoreType.LINKS, compactStateKey(body.type));
  if (compact === undefined || data.timestamp > compact.timestamp) return;
  const target = body.targetFid ?? 0;
  if (decodeCompactTargets(compact).has(target)) return;
  if (data.type === MessageType.LINK_REMOVE) {
    throw new HubError(
      "bad_request.prunable",
      "Remove message earlier than the compact state message will be immediately pruned",
    );
  }
  throw new HubError("bad_request.conflict", `Target fid ${target} not in the compact state target fids`);
}

function decodeCompactTargets(row: MergeRow): Set<number> {
  const { message } = decodeMessage(row.message);
  return new Set(message.data?.linkCompactStateBody?.targetFids ?? []);
}

/**
 * A compact state replaces the older one of its link type and clears the link messages, at or
 * before it, of the targets it does not list. The event lists no deleted messages (the reference
 * keeps it bounded that way).
 *
 * Two departures from the reference, both so that the final state is the same whatever order the
 * messages arrive in: links of other types are left alone, and adds and removes of the targets it
 * lists keep competing as usual (the reference deletes every remove at or before it, which can
 * revive a follow or not depending on whether the remove had already displaced the add).
 */
async function mergeCompactState(ctx: MergeContext, incoming: Incoming): Promise<void> {
  const data = incoming.message.data!;
  const body = data.linkCompactStateBody!;
  const key = compactStateKey(body.type);
  const existing = await findBySetKey(ctx, data.fid, StoreType.LINKS, key);
  if (existing !== undefined) {
    if (bytesEqual(existing.ts_hash, incoming.tsHash)) {
      throw new HubError("bad_request.duplicate", "message has already been merged");
    }
    if (existing.timestamp >= data.timestamp) {
      throw new HubError("bad_request.conflict", "A newer Compact State message is already merged");
    }
  }
  if (existing !== undefined) await deleteMessage(ctx, existing);
  const keep = new Set(body.targetFids);
  const superseded = await ctx.trx
    .selectFrom("hub_messages")
    .select([...MERGE_COLUMNS, "target_fid"])
    .where("fid", "=", data.fid)
    .where("store", "=", StoreType.LINKS)
    .where("kind", "=", body.type)
    .where("type", "in", [MessageType.LINK_ADD, MessageType.LINK_REMOVE])
    .where("timestamp", "<=", data.timestamp)
    .execute();
  for (const row of superseded) {
    if (!keep.has(row.target_fid ?? 0)) await deleteMessage(ctx, row);
  }
  await insertMessage(ctx, StoreType.LINKS, incoming, key, {
    kind: body.type,
    target: null,
    targetFid: null,
    mentions: [],
  });
  ctx.events.push({
    type: HubEventType.MERGE_MESSAGE,
    mergeMessageBody: { message: incoming.message, deletedMessages: [] },
  });
}

/** Deletes the oldest messages of a store until it fits its limit, one prune event each. */
export async function pruneStore(ctx: MergeContext, fid: number, store: StoreType): Promise<number> {
  const limit = (await storageOf(ctx, fid)).limit(store);
  const excess = (await storeCount(ctx, fid, store)) - limit;
  if (excess <= 0) return 0;
  const rows = await ctx.trx
    .selectFrom("hub_messages")
    .select(MERGE_COLUMNS)
    .where("fid", "=", fid)
    .where("store", "=", store)
    .where("type", "!=", MessageType.LINK_COMPACT_STATE)
    .orderBy("ts_hash")
    .limit(excess)
    .execute();
  for (const row of rows) {
    const message = await deleteMessage(ctx, row);
    ctx.events.push(deletionEvent(store, message, "prune"));
  }
  return rows.length;
}

/** The event that reports a pruned or revoked message; proofs report through their own event type. */
function deletionEvent(store: StoreType, message: Message, why: "prune" | "revoke") {
  if (store === StoreType.USERNAME_PROOFS) {
    return {
      type: HubEventType.MERGE_USERNAME_PROOF,
      mergeUsernameProofBody: {
        usernameProof: undefined,
        deletedUsernameProof: message.data?.usernameProofBody,
        usernameProofMessage: undefined,
        deletedUsernameProofMessage: message,
      },
    };
  }
  return why === "prune"
    ? { type: HubEventType.PRUNE_MESSAGE, pruneMessageBody: { message } }
    : { type: HubEventType.REVOKE_MESSAGE, revokeMessageBody: { message } };
}

/** Deletes every message the key signed for the fid (the key was removed on chain), one revoke event each. */
export async function revokeSigner(ctx: MergeContext, fid: number, signer: Uint8Array): Promise<number> {
  const rows = await ctx.trx
    .selectFrom("hub_messages")
    .select(MERGE_COLUMNS)
    .where("fid", "=", fid)
    .where("signer", "=", signer)
    .orderBy("store")
    .orderBy("ts_hash")
    .execute();
  for (const row of rows) await revokeRow(ctx, row);
  return rows.length;
}

export async function revokeRow(ctx: MergeContext, row: MergeRow): Promise<void> {
  const message = await deleteMessage(ctx, row);
  ctx.events.push(deletionEvent(row.store as StoreType, message, "revoke"));
}
