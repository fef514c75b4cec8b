/**
 * `castnet seed demo` (and `castnet start --seed demo`): the demo world of world.ts made real through
 * the parts' public HTTP APIs, idempotently: whatever is already there is left as it is, so running it
 * again changes nothing.
 */
import type { Context } from "../context.js";
import { type Progress, progress } from "../progress.js";
import { ensureAccounts } from "./accounts.js";
import {
  seedActions,
  seedBlocks,
  seedChannels,
  seedKeyRequest,
  seedPowerBadges,
  seedSponsor,
} from "./clientApi.js";
import {
  seedCasts,
  seedFollows,
  seedGaslessSigner,
  seedLoan,
  seedNames,
  seedProfiles,
  seedReactions,
  seedVerifications,
} from "./hub.js";
import { type Kind, Tally } from "./tally.js";
import { CASTS, URL_LIKES } from "./casts.js";
import { ACCOUNTS, ACTIONS, BADGE_OVERRIDES, BLOCKS, CHANNELS, STORAGE_UNITS } from "./world.js";

export interface SeedSummary {
  /** Per kind: how many the demo has, and how many of them this run made. */
  [kind: string]: { total: number; made: number };
}

const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

/** How many items the progress counts: every entry of the world but the badges the rule decides. */
function plannedItems(): number {
  return (
    ACCOUNTS.length * 3 + // account, name, profile
    CASTS.length +
    sum(CASTS.map((c) => (c.likedBy?.length ?? 0) + (c.recastBy?.length ?? 0))) +
    URL_LIKES.length +
    sum(ACCOUNTS.map((a) => a.follows.length)) +
    ACCOUNTS.filter((a) => a.verifies).length +
    CHANNELS.length +
    sum(CHANNELS.map((c) => c.followers.length)) +
    BLOCKS.length +
    ACTIONS.length +
    sum(ACTIONS.map((a) => a.installedBy.length)) +
    BADGE_OVERRIDES.length +
    4 // the loan, the sponsor, the key request, the gasless signer
  );
}

/** The demo world; once `signal` is aborted it stops after the item under way, throwing its reason. */
export async function seedDemo(
  context: Context,
  shown: Progress = progress("seeding the demo:", plannedItems()),
  signal?: AbortSignal,
): Promise<SeedSummary> {
  const tally = new Tally(shown, signal);
  const actors = await ensureAccounts(
    context,
    ACCOUNTS.map((a) => a.name),
    STORAGE_UNITS,
    tally,
  );
  const byName = new Map(actors.map((actor) => [actor.name, actor]));
  await seedNames(context, byName, tally);
  await seedProfiles(context, byName, tally);
  const casts = await seedCasts(context, byName, tally);
  await seedReactions(context, byName, casts, tally);
  await seedFollows(context, byName, tally);
  await seedVerifications(context, byName, tally);
  await seedLoan(context, byName, tally);
  await seedGaslessSigner(context, byName, tally);
  await seedChannels(context, byName, tally);
  await seedBlocks(context, byName, tally);
  await seedActions(context, byName, tally);
  await seedSponsor(context, byName, tally);
  await seedKeyRequest(context, tally);
  await seedPowerBadges(context, byName, tally);
  const summary: SeedSummary = {};
  for (const kind of Object.keys(tally.total) as Kind[])
    summary[kind] = { total: tally.total[kind]!, made: tally.made[kind] ?? 0 };
  const made = sum(Object.values(summary).map((s) => s.made));
  shown.finish(
    made === 0 ? "the demo was already there: nothing to add" : `seeded the demo: ${made} new items`,
  );
  return summary;
}

/** One line per kind for a terminal. */
export function summaryLines(summary: SeedSummary): string[] {
  return Object.entries(summary).map(
    ([kind, { total, made }]) => `${kind.padEnd(16)} ${String(total).padStart(4)}  (${made} new)`,
  );
}
