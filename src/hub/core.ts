/**
 * What every part of the hub shares: its database, naming profile, network, clock, logger and the
 * bus that wakes event streams; and the one way to run a merge transaction.
 */
import type { Logger } from "../http/index.js";
import type { SocialNetwork } from "../protocol/generated/message.js";
import type { NamingProfile } from "../protocol/naming.js";
import type { Database } from "../storage/index.js";
import { flushCounts, newContext, type MergeContext } from "./context.js";
import { commitEvents, type EventBus } from "./events.js";
import type { HubTables } from "./tables.js";
import { lockedTransaction } from "./transaction.js";

export interface HubCore {
  readonly database: Database<HubTables>;
  readonly profile: NamingProfile;
  readonly network: SocialNetwork;
  /** Unix ms. */
  readonly now: () => number;
  readonly logger: Logger;
  readonly bus: EventBus;
}

/**
 * Runs `work` in one transaction holding `locks`; its count changes and events are written at the
 * end, and event streams are woken once it has committed.
 */
export async function runMerge<Result>(
  core: HubCore,
  locks: Iterable<bigint>,
  work: (ctx: MergeContext) => Promise<Result>,
): Promise<Result> {
  let wrote = false;
  const result = await lockedTransaction(core.database, locks, async (trx) => {
    const ctx = newContext(trx, core.database.engine, core.profile, core.now());
    const value = await work(ctx);
    await flushCounts(ctx);
    wrote = (await commitEvents(ctx)) > 0;
    return value;
  });
  if (wrote) core.bus.notify();
  return result;
}
