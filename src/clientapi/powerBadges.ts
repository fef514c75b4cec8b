import { serializedTransaction } from "../storage/index.js";
import type { ActivitySource } from "../interfaces/activity.js";
import type { ApiContext } from "./context.js";
import { notFound } from "./errors.js";
import { lastSlot, nextSlot } from "./powerBadgeSlots.js";
import * as powerBadgeStore from "./powerBadgeStore.js";

/**
 * The badge rule: a fid earns the badge when at least `minReactors` distinct other fids reacted to
 * its casts during the `windowDays` days before a run. Operator grants and revocations always win.
 */
export interface PowerBadgeRule {
  minReactors: number;
  windowDays: number;
}

export const DEFAULT_POWER_BADGE_RULE: PowerBadgeRule = { minReactors: 5, windowDays: 30 };

export interface PowerBadgeRun {
  /** The Tuesday 12:00 UTC (Unix seconds) the run stands for; null for a run triggered by hand. */
  slot: number | null;
  ranAt: number;
  computedCount: number;
}

export interface PowerBadgeState {
  holders: number[];
  rule: PowerBadgeRule;
  computed: number[];
  grants: number[];
  revocations: number[];
  lastRun: PowerBadgeRun | null;
  nextRun: number;
}

const RETRY_AFTER_FAILURE_SECONDS = 60;

/**
 * Weekly recalculation, Tuesdays 12:00:00 UTC. `checkSchedule` is cheap (no query unless the slot
 * changed) and is called by the part's background loop, so a run missed while the server was down
 * happens at the next start, and an injected clock drives it in tests. With several processes on one
 * database, the slot row makes the run happen once.
 */
export class PowerBadges {
  private checkedSlot: number | undefined;
  private retryAt = 0;

  constructor(
    private readonly ctx: ApiContext,
    private readonly activity: ActivitySource,
    readonly rule: PowerBadgeRule,
  ) {}

  holders(): Promise<number[]> {
    return powerBadgeStore.powerBadgeHolders(this.ctx.database.db);
  }

  async state(): Promise<PowerBadgeState> {
    const [holders, computed, overrides, last] = await Promise.all([
      powerBadgeStore.powerBadgeHolders(this.ctx.database.db),
      powerBadgeStore.computedBadges(this.ctx.database.db),
      powerBadgeStore.badgeOverrides(this.ctx.database.db),
      powerBadgeStore.lastBadgeRun(this.ctx.database.db),
    ]);
    return {
      holders,
      rule: this.rule,
      computed,
      grants: overrides.filter((o) => o.granted === 1).map((o) => o.fid),
      revocations: overrides.filter((o) => o.granted === 0).map((o) => o.fid),
      lastRun: last ? { slot: last.slot, ranAt: last.ran_at, computedCount: last.computed_count } : null,
      nextRun: nextSlot(this.ctx.nowSeconds()),
    };
  }

  async grant(fid: number): Promise<void> {
    await serializedTransaction(this.ctx.database, "api:power-badges", (trx) =>
      powerBadgeStore.setBadgeOverride(trx, fid, true, this.ctx.nowSeconds()),
    );
  }

  async revoke(fid: number): Promise<void> {
    await serializedTransaction(this.ctx.database, "api:power-badges", (trx) =>
      powerBadgeStore.setBadgeOverride(trx, fid, false, this.ctx.nowSeconds()),
    );
  }

  /** Drops the operator's word on `fid`, leaving it to the rule. */
  async clearOverride(fid: number): Promise<void> {
    const cleared = await serializedTransaction(this.ctx.database, "api:power-badges", (trx) =>
      powerBadgeStore.clearBadgeOverride(trx, fid),
    );
    if (!cleared) throw notFound(`fid ${fid} has no power badge grant or revocation`);
  }

  /** Runs the rule now, by hand. */
  recalculate(): Promise<PowerBadgeRun> {
    return this.run(null).then((run) => run!);
  }

  /** Runs the most recent slot if no process has run it yet. Never throws; failures are retried. */
  async checkSchedule(): Promise<void> {
    const now = this.ctx.nowSeconds();
    const slot = lastSlot(now);
    if (slot === this.checkedSlot || now < this.retryAt) return;
    try {
      if (!(await powerBadgeStore.hasBadgeRun(this.ctx.database.db, slot))) {
        const run = await this.run(slot);
        if (run) this.ctx.logger.info({ slot, computed: run.computedCount }, "power badges recalculated");
      }
      this.checkedSlot = slot;
    } catch (error) {
      this.retryAt = now + RETRY_AFTER_FAILURE_SECONDS;
      this.ctx.logger.warn({ err: error, slot }, "power badge recalculation failed; will retry");
    }
  }

  /** Undefined when another process ran the slot meanwhile. */
  private async run(slot: number | null): Promise<PowerBadgeRun | undefined> {
    const ranAt = this.ctx.nowSeconds();
    const reactors = await this.activity.reactorsByAuthor(ranAt - this.rule.windowDays * 86_400);
    const earned = [...reactors]
      .filter(([, count]) => count >= this.rule.minReactors)
      .map(([fid]) => fid)
      .sort((a, b) => a - b);
    return serializedTransaction(this.ctx.database, "api:power-badges", async (trx) => {
      if (slot !== null && (await powerBadgeStore.hasBadgeRun(trx, slot))) return undefined;
      await powerBadgeStore.replaceComputedBadges(trx, earned, slot, ranAt);
      return { slot, ranAt, computedCount: earned.length };
    });
  }
}
