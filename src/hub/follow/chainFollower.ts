/**
 * On-chain events merged from the chain (docs/reference/protocol-rules.md §4, §6): registrations decide
 * which fids exist, signer events which Ed25519 keys may sign for them, rents how much they may
 * store. A removed signer takes every message it signed with it. The chain follower feeds them in
 * pages; their reads are in onchain.ts.
 */
import type { OnChainEventSource } from "../../interfaces/chain.js";
import { HubEventType } from "../../protocol/generated/hub_event.js";
import {
  IdRegisterEventType,
  OnChainEvent,
  OnChainEventType,
  SignerEventType,
} from "../../protocol/generated/onchain_event.js";
import { HubError } from "../../protocol/errors.js";
import type { MergeContext } from "../merge/context.js";
import { runMerge, type HubCore } from "../core.js";
import { type CatchUpProgressListener, Follower } from "./follower.js";
import { readState, writeState } from "../data/state.js";
import { revokeSigner } from "../merge/stores/crdt.js";
import { fidLock, followerLock } from "../merge/locks.js";

const SUPPORTED = new Set<number>([
  OnChainEventType.EVENT_TYPE_SIGNER,
  OnChainEventType.EVENT_TYPE_SIGNER_MIGRATED,
  OnChainEventType.EVENT_TYPE_ID_REGISTER,
  OnChainEventType.EVENT_TYPE_STORAGE_RENT,
]);

function isNewer(
  a: { block_number: number; log_index: number },
  b: { block_number: number; log_index: number },
) {
  return a.block_number !== b.block_number ? a.block_number > b.block_number : a.log_index > b.log_index;
}

/**
 * Merges one on-chain event. Returns false for an event already merged; throws HubError for one
 * the rules refuse (an unknown type, a removed key added again).
 */
async function mergeOnChainEvent(ctx: MergeContext, event: OnChainEvent): Promise<boolean> {
  if (!SUPPORTED.has(event.type)) throw new HubError("bad_request.validation_failure", "invalid event type");
  const position = { block_number: event.blockNumber, log_index: event.logIndex };
  const existing = await ctx.trx
    .selectFrom("hub_onchain_events")
    .select("fid")
    .where("fid", "=", event.fid)
    .where("type", "=", event.type)
    .where("block_number", "=", event.blockNumber)
    .where("log_index", "=", event.logIndex)
    .executeTakeFirst();
  if (existing !== undefined) return false;

  const signerBody = event.signerEventBody;
  let revokeKey: Uint8Array | undefined;
  if (event.type === OnChainEventType.EVENT_TYPE_SIGNER && signerBody !== undefined) {
    const current = await ctx.trx
      .selectFrom("hub_signers")
      .selectAll()
      .where("fid", "=", event.fid)
      .where("key", "=", signerBody.key)
      .executeTakeFirst();
    if (
      current !== undefined &&
      signerBody.eventType === SignerEventType.ADD &&
      current.event_type === SignerEventType.REMOVE &&
      current.version === event.version
    ) {
      throw new HubError("bad_request.conflict", "attempting to re-add removed key");
    }
    const index = await signerIndexAfter(ctx, event);
    if (index !== undefined && (current === undefined || isNewer(position, current))) {
      await ctx.trx
        .insertInto("hub_signers")
        .values({
          fid: event.fid,
          key: signerBody.key,
          event_type: index.eventType,
          key_type: index.keyType,
          block_number: event.blockNumber,
          log_index: event.logIndex,
          version: event.version,
        })
        .onConflict((oc) =>
          oc.columns(["fid", "key"]).doUpdateSet({
            event_type: index.eventType,
            key_type: index.keyType,
            block_number: event.blockNumber,
            log_index: event.logIndex,
            version: event.version,
          }),
        )
        .execute();
      if (index.eventType === SignerEventType.REMOVE) revokeKey = signerBody.key;
    }
  }

  const idBody = event.idRegisterEventBody;
  const custodyChange =
    event.type === OnChainEventType.EVENT_TYPE_ID_REGISTER &&
    idBody !== undefined &&
    (idBody.eventType === IdRegisterEventType.REGISTER || idBody.eventType === IdRegisterEventType.TRANSFER);
  await ctx.trx
    .insertInto("hub_onchain_events")
    .values({
      fid: event.fid,
      type: event.type,
      block_number: event.blockNumber,
      log_index: event.logIndex,
      block_timestamp: event.blockTimestamp,
      address: custodyChange ? idBody.to : null,
      signer: signerBody?.key ?? null,
      event: OnChainEvent.encode(event).finish(),
    })
    .execute();
  if (custodyChange) {
    const current = await ctx.trx
      .selectFrom("hub_fids")
      .select(["block_number", "log_index"])
      .where("fid", "=", event.fid)
      .executeTakeFirst();
    if (current === undefined || isNewer(position, current)) {
      await ctx.trx
        .insertInto("hub_fids")
        .values({ fid: event.fid, custody: idBody.to, ...position })
        .onConflict((oc) => oc.column("fid").doUpdateSet({ custody: idBody.to, ...position }))
        .execute();
    }
  }
  if (event.type === OnChainEventType.EVENT_TYPE_STORAGE_RENT) ctx.storage.delete(event.fid);

  ctx.events.push({
    type: HubEventType.MERGE_ON_CHAIN_EVENT,
    mergeOnChainEventBody: { onChainEvent: event },
  });
  if (revokeKey !== undefined) await revokeSigner(ctx, event.fid, revokeKey);
  return true;
}

/**
 * What the signer index says after this event: an add (Ed25519 keys only), a remove, or for an
 * admin reset the key's original add again (the registry migration's escape hatch).
 */
async function signerIndexAfter(
  ctx: MergeContext,
  event: OnChainEvent,
): Promise<{ eventType: SignerEventType; keyType: number } | undefined> {
  const body = event.signerEventBody!;
  switch (body.eventType) {
    case SignerEventType.ADD:
      return { eventType: SignerEventType.ADD, keyType: body.keyType };
    case SignerEventType.REMOVE:
      return { eventType: SignerEventType.REMOVE, keyType: 0 };
    case SignerEventType.ADMIN_RESET: {
      const rows = await ctx.trx
        .selectFrom("hub_onchain_events")
        .select("event")
        .where("fid", "=", event.fid)
        .where("type", "=", OnChainEventType.EVENT_TYPE_SIGNER)
        .where("signer", "=", body.key)
        .orderBy("block_number")
        .orderBy("log_index")
        .execute();
      for (const row of rows) {
        const added = OnChainEvent.decode(row.event).signerEventBody;
        if (added?.eventType === SignerEventType.ADD)
          return { eventType: SignerEventType.ADD, keyType: added.keyType };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

const NEXT_BLOCK = "chain:next_block";
const PAGE = 500;
const CHAIN_FOLLOWER = 1;

/**
 * Follows the chain from the last merged block: woken by new blocks, it merges whole pages of
 * events in one transaction with the position it advanced to, so that several hub processes on
 * one database share one position and never merge a page twice.
 */
export class ChainFollower extends Follower {
  /** The chain's latest block when the first catch-up began: the end its progress counts towards. */
  #head: number | undefined;

  constructor(
    private readonly core: HubCore,
    private readonly source: OnChainEventSource,
    onCatchUp?: CatchUpProgressListener,
  ) {
    super("chain", core.logger, (notice) => source.onBlock(notice), onCatchUp);
  }

  protected async step(): Promise<boolean> {
    const from = Number((await readState(this.core.database.db, NEXT_BLOCK)) ?? 0);
    const events = await this.source.eventsFromBlock(from, PAGE);
    if (events.length === 0) return false;
    if (this.catchingUp) this.#head ??= await this.source.latestBlockNumber();
    const locks = [followerLock(CHAIN_FOLLOWER), ...new Set(events.map((e) => fidLock(e.fid)))];
    await runMerge(this.core, locks, async (ctx) => {
      if (Number((await readState(ctx.trx, NEXT_BLOCK)) ?? 0) !== from) return;
      for (const event of events) {
        try {
          await mergeOnChainEvent(ctx, event);
        } catch (error) {
          if (!(error instanceof HubError)) throw error;
          this.core.logger.warn(
            { fid: event.fid, block: event.blockNumber, reason: error.message },
            "on-chain event refused",
          );
        }
      }
      await writeState(ctx.trx, NEXT_BLOCK, String(events[events.length - 1]!.blockNumber + 1));
    });
    // Blocks mined since the head was read may be in the page; the count stops at that head.
    if (this.#head !== undefined)
      this.advanced(Math.min(events[events.length - 1]!.blockNumber, this.#head), this.#head);
    return true;
  }
}
