import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ClientApiTables } from "../../src/clientapi/tables.js";
import { type Database, openDatabase } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import { type Harness, call, startHarness } from "./support.js";

const at = (iso: string) => Date.parse(iso) / 1000;
const DAY = 86_400;

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (const engine of await testEngines()) {
  describe(`power-badge recalculation on ${engine.engine}`, { skip: engine.skip }, () => {
    let h: Harness;
    let clock = at("2024-06-03T10:00:00Z");
    let db: Database<ClientApiTables>;
    const state = async () => (await call(h.url, "GET", "/v1/admin/power-badges")).body.result;
    const holders = async () => (await call(h.url, "GET", "/v2/power-badge-users")).body.result.fids;
    const runs = async () =>
      db.db.selectFrom("api_power_badge_runs").select(["slot", "ran_at"]).orderBy("id").execute();
    const react = (author: number, reactors: number[], when: number) => {
      for (const reactor of reactors) h.activity.react(reactor, author, when);
    };

    before(async () => {
      h = await startHarness(engine, {
        now: () => clock * 1000,
        pollIntervalMs: 10,
        powerBadgeRule: { minReactors: 5 },
      });
      db = openDatabase<ClientApiTables>(h.apiDatabase);
    });
    after(async () => {
      await db?.close();
      await h?.close();
    });

    it("runs a missed slot at start, counting distinct reactors of the last 30 days", async () => {
      // The first start had no run for the latest slot (Tue 2024-05-28 12:00), so it ran at once.
      await until("the catch-up run", async () => (await runs()).length === 1);
      assert.deepEqual(await runs(), [{ slot: at("2024-05-28T12:00:00Z"), ran_at: clock }]);
      assert.deepEqual(h.activity.calls, [clock - 30 * DAY]);
      assert.deepEqual(await holders(), []);
    });

    it("runs again only when the next Tuesday 12:00 UTC comes", async () => {
      const now = clock;
      react(10, [1, 2, 3, 4, 5], now - DAY); // 5 distinct reactors: earns it
      react(10, [1, 2], now - 2 * DAY); // the same reactors again count once
      react(11, [1, 2, 3, 4], now - DAY); // 4: not enough
      react(12, [1, 2, 3], now - DAY);
      react(12, [4, 5, 6], now - 40 * DAY); // too old
      react(13, [13, 13, 13, 13, 13, 1, 2, 3, 4], now - DAY); // reacting to oneself does not count
      clock = at("2024-06-04T11:59:59Z");
      await new Promise((resolve) => setTimeout(resolve, 60));
      assert.equal((await runs()).length, 1);
      clock = at("2024-06-04T12:00:00Z");
      await until("the Tuesday run", async () => (await runs()).length === 2);
      assert.deepEqual((await runs())[1], { slot: at("2024-06-04T12:00:00Z"), ran_at: clock });
      assert.deepEqual(await holders(), [10]);
      const s = await state();
      assert.deepEqual(s.rule, { minReactors: 5, windowDays: 30 });
      assert.deepEqual(s.computed, [10]);
      assert.deepEqual(s.lastRun, { slot: at("2024-06-04T12:00:00Z"), ranAt: clock, computedCount: 1 });
      assert.equal(s.nextRun, at("2024-06-11T12:00:00Z"));
    });

    it("lets operator grants and revocations win over the rule", async () => {
      await call(h.url, "PUT", "/v1/admin/power-badges/10", { badge: "revoke" });
      await call(h.url, "PUT", "/v1/admin/power-badges/99", { badge: "grant" });
      await call(h.url, "PUT", "/v1/admin/power-badges/11", { badge: "grant" });
      assert.deepEqual(await holders(), [11, 99]);
      react(11, [7], clock - 60);
      const manual = await call(h.url, "POST", "/v1/admin/power-badges/recalculate");
      assert.deepEqual(manual.body, { result: { run: { slot: null, ranAt: clock, computedCount: 2 } } });
      assert.deepEqual((await state()).computed, [10, 11]);
      assert.deepEqual(await holders(), [11, 99]);
      await call(h.url, "DELETE", "/v1/admin/power-badges/10");
      assert.deepEqual(await holders(), [10, 11, 99]);
    });

    describe("restarts", () => {
      let count: number;
      let second: Awaited<ReturnType<typeof h.restart>>;

      it("runs no slot again when a process starts after its run", async () => {
        count = (await runs()).length;
        second = await h.restart();
        await new Promise((resolve) => setTimeout(resolve, 60));
        assert.equal((await runs()).length, count);
      });

      it("runs a slot once between two processes", async () => {
        // Both processes see the next slot come; one of them runs it.
        clock = at("2024-06-11T12:00:05Z");
        await until("the next run", async () => (await runs()).length === count + 1);
        await new Promise((resolve) => setTimeout(resolve, 60));
        assert.equal((await runs()).filter((r) => r.slot === at("2024-06-11T12:00:00Z")).length, 1);
        await second.close();
      });

      it("runs only the latest missed slot after a long stop", async () => {
        // Down for three weeks: one catch-up run, for the latest slot.
        clock = at("2024-07-03T08:00:00Z");
        const third = await h.restart();
        await until("the catch-up run", async () => (await runs()).length === count + 2);
        assert.equal((await runs()).at(-1)!.slot, at("2024-07-02T12:00:00Z"));
        await third.close();
      });
    });

    it("retries a run whose activity source failed", async () => {
      const failing = {
        fail: true,
        calls: 0,
        async reactorsByAuthor() {
          this.calls++;
          if (this.fail) throw new Error("hub unreachable");
          return new Map([[42, 100]]);
        },
        profileOf: async () => ({ verifications: [] }),
      };
      // From here on only the processes started below run the schedule.
      await h.api.close();
      const count = (await runs()).length;
      clock = at("2024-07-09T12:00:00Z");
      const flaky = await h.restart({ activity: failing });
      await until("a failed attempt", async () => failing.calls >= 1);
      failing.fail = false;
      await new Promise((resolve) => setTimeout(resolve, 60));
      // No retry within a minute of the failure, then one.
      assert.equal(failing.calls, 1);
      clock += 61;
      await until("the retried run", async () => (await runs()).length === count + 1);
      assert.deepEqual((await flaky.service.powerBadges.state()).computed, [42]);
      await flaky.close();
    });

    it("uses the configured thresholds", async () => {
      const strict = await h.restart({ powerBadgeRule: { minReactors: 2, windowDays: 1 } });
      react(50, [1, 2], clock - 100);
      react(51, [1, 2], clock - 2 * DAY);
      const run = await strict.service.powerBadges.recalculate();
      assert.equal(run.slot, null);
      assert.deepEqual((await strict.service.powerBadges.state()).computed, [50]);
      await strict.close();
    });
  });
}
