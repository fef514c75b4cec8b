/**
 * Link compact states (docs/reference/protocol-rules.md §4): one per fid and link type, kept in the links store
 * beside its set. A compact state lists the targets whose links survive it; links at or before it
 * to any other target are cleared, and later-arriving ones are refused.
 */
import { MessageType } from "../../../protocol/generated/message.js";
import { HubError } from "../../../protocol/errors.js";
import { bytesEqual } from "../../../protocol/hash.js";
import { decodeMessage } from "../../../protocol/message.js";
import type { MergeContext } from "../context.js";
import { compactStateKey, StoreType } from "../../data/keys.js";
import {
  deleteMessage,
  findBySetKey,
  insertMessage,
  MERGE_COLUMNS,
  type Incoming,
  type MergeRow,
} from "./rows.js";
import { MESSAGE_EVENTS } from "./spec.js";

/**
 * Link messages at or before the fid's compact state of their type obey it for the targets it
 * leaves out: an add is a conflict, a remove would be pruned at once. Messages for the targets it
 * lists merge as usual.
 */
export async function checkAgainstCompactState(ctx: MergeContext, incoming: Incoming): Promise<void> {
  const data = incoming.message.data;
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
export async function mergeCompactState(ctx: MergeContext, incoming: Incoming): Promise<void> {
  const data = incoming.message.data;
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
  if (existing !== undefined) await deleteMessage(ctx, existing, "uncounted");
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
    if (!keep.has(row.target_fid ?? 0)) await deleteMessage(ctx, row, "counted");
  }
  await insertMessage(
    ctx,
    StoreType.LINKS,
    incoming,
    key,
    { kind: body.type, target: null, targetFid: null, mentions: [] },
    "uncounted",
  );
  ctx.events.push(MESSAGE_EVENTS.merged(incoming, []));
}
