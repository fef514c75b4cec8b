/**
 * What every part of the hub shares: its database, naming profile, network, clock, logger, metrics
 * and the bus that wakes event streams; and the one way to run a merge transaction.
 */
import type { Logger } from "../http/index.js";
import type { SocialNetwork } from "../protocol/generated/message.js";
import type { NamingProfile } from "../protocol/naming.js";
import { type Database, serializedTransaction } from "../storage/index.js";
import { flushCounts, newContext, type MergeContext } from "./merge/context.js";
import { commitEvents, type EventBus } from "./data/events.js";
import type { HubMetrics } from "./metrics.js";
import type { HubTables } from "./data/tables.js";

export interface HubCore {
  readonly database: Database<HubTables>;
  readonly profile: NamingProfile;
  readonly network: SocialNetwork;
  /** Unix ms. */
  readonly now: () => number;
  readonly logger: Logger;
  readonly bus: EventBus;
  readonly metrics: HubMetrics;
}

/** A committed merge: its result, and a promise that settles once it survives a power cut. */
export interface Committed<Result> {
  value: Result;
  durable: Promise<void>;
}

/**
 * Runs `work` in one transaction holding `locks`; its count changes and events are written at the
 * end. Returns once it has committed, without waiting for it to be durable, so that the next merge
 * can start while the disk catches up; event streams are woken once it is durable, so that no
 * consumer ever sees an event a crash could take back.
 */
export async function commitMerge<Result>(
  core: HubCore,
  locks: Iterable<bigint>,
  work: (ctx: MergeContext) => Promise<Result>,
): Promise<Committed<Result>> {
  let written = 0;
  const value = await serializedTransaction(core.database, locks, async (trx) => {
    const ctx = newContext(trx, core.database.engine, core.profile, core.now());
    const result = await work(ctx);
    await flushCounts(ctx);
    written = await commitEvents(ctx);
    return result;
  });
  core.metrics.eventsWritten.inc(written);
  const durable = core.database.durable().then(() => {
    if (written > 0) core.bus.notify();
  });
  return { value, durable };
}

/** `commitMerge`, returning once the merge is durable. */
export async function runMerge<Result>(
  core: HubCore,
  locks: Iterable<bigint>,
  work: (ctx: MergeContext) => Promise<Result>,
): Promise<Result> {
  const { value, durable } = await commitMerge(core, locks, work);
  await durable;
  return value;
}
