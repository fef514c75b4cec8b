/** What a hub started behind the chain and the registry reports of its catch-up (HubOptions.onCatchUp). */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { CatchUpProgress } from "../../src/hub/follow/follower.js";
import type { HubOptions } from "../../src/hub/index.js";
import { testEngines } from "../support/databases.js";
import { newAccount, registerName, startStack, type Stack } from "./support.js";

type Report = [source: "chain" | "registry", catchUp: CatchUpProgress];

for (const engine of await testEngines()) {
  describe(`a hub's catch-up at start on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack(engine);
      for (const name of ["ada", "bob", "cyd"]) await registerName(stack, await newAccount(stack), name);
    });
    after(async () => {
      await stack?.close();
    });

    const recorder = () => {
      const reports: Report[] = [];
      const onCatchUp: HubOptions["onCatchUp"] = (source, catchUp) => reports.push([source, catchUp]);
      return { reports, onCatchUp };
    };

    it("counts blocks towards the chain's head and the registry's transfers, then says it is caught up", async () => {
      const head = await stack.chain.chain.latestBlockNumber();
      const { reports, onCatchUp } = recorder();
      const database = await stack.freshDatabase();
      const hub = await stack.startHub({ database, onCatchUp });
      await Promise.all([hub.service.syncChain(), hub.service.syncNames()]);
      const of = (source: Report[0]) => reports.filter(([s]) => s === source).map(([, c]) => c);
      // Every block of the devchain holds events here (each transaction is mined at once), so the
      // last merged is the head; one page holds all.
      assert.deepEqual(of("chain"), [
        { done: head, total: head, finished: false },
        { done: head, total: head, finished: true },
      ]);
      assert.deepEqual(of("registry"), [
        { done: 3, total: undefined, finished: false },
        { done: 3, total: undefined, finished: true },
      ]);

      // What comes after the first catch-up is ordinary following, not reported.
      await registerName(stack, await newAccount(stack), "dee");
      await Promise.all([hub.service.syncChain(), hub.service.syncNames()]);
      assert.equal(reports.length, 4);

      // A hub that starts where it stopped has nothing to catch up, and says nothing.
      await hub.close();
      const restarted = recorder();
      const again = await stack.startHub({ database, onCatchUp: restarted.onCatchUp });
      await Promise.all([again.service.syncChain(), again.service.syncNames()]);
      assert.deepEqual(restarted.reports, []);
    });
  });
}
