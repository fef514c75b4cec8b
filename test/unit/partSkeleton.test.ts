/** The part skeleton's pure pieces (src/part/): closing in reverse, and the background job. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { createLogger } from "../../src/http/index.js";
import { startJob } from "../../src/part/job.js";
import { buildPart, PartScope } from "../../src/part/scope.js";

describe("PartScope", () => {
  it("closes the last opened first, runs every close when one fails, and rethrows the first failure", async () => {
    const closed: string[] = [];
    const scope = new PartScope("demo", createLogger("silent"));
    scope.own("database", (name) => closed.push(name));
    scope.own("threads", () => {
      closed.push("threads");
      throw new Error("threads would not stop");
    });
    scope.own("server", async (name) => {
      await sleep(5);
      closed.push(name);
    });
    await assert.rejects(scope.close(), /threads would not stop/);
    assert.deepEqual(closed, ["server", "threads", "database"]);
  });

  it("buildPart closes what a failed build opened, and a built part's close runs once", async () => {
    const closed: string[] = [];
    await assert.rejects(
      buildPart({ part: "demo", logger: createLogger("silent") }, async (scope) => {
        scope.own("database", (name) => closed.push(name));
        throw new Error("no port");
      }),
      /no port/,
    );
    assert.deepEqual(closed, ["database"]);

    const part = await buildPart({ part: "demo", logger: createLogger("silent") }, async (scope) => {
      scope.own("database", (name) => closed.push(name));
      return { name: "demo" };
    });
    assert.equal(part.name, "demo");
    await Promise.all([part.close(), part.close()]);
    assert.deepEqual(closed, ["database", "database"]);
  });
  it("gives the part one logger, whose every line carries the part's name", () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
        done();
      },
    });
    const scope = new PartScope("hub", pino({ level: "info" }, sink));
    scope.logger.child({ job: "pruning" }).info("pruned");
    scope.logger.warn("slow");
    assert.deepEqual(
      lines.map(({ part, job, msg }) => ({ part, job, msg })),
      [
        { part: "hub", job: "pruning", msg: "pruned" },
        { part: "hub", job: undefined, msg: "slow" },
      ],
    );
  });
});

describe("startJob", () => {
  const logger = createLogger("silent");

  it("never runs twice at once, and stop waits for the run in flight", async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    let finished = 0;
    const job = startJob({
      name: "slow",
      intervalMs: 1,
      immediately: true,
      logger,
      run: async () => {
        runs++;
        most = Math.max(most, ++running);
        await sleep(15);
        running--;
        finished++;
      },
    });
    await sleep(50);
    await job.stop();
    assert.equal(most, 1);
    assert.equal(finished, runs, "no run was cut short");
    const after = runs;
    await sleep(30);
    assert.equal(runs, after, "nothing runs after stop");
  });

  it("goes on after a failed run, and waits a whole interval before the first run unless told", async () => {
    let runs = 0;
    const job = startJob({
      name: "failing",
      intervalMs: 10,
      logger,
      run: async () => {
        runs++;
        throw new Error("boom");
      },
    });
    assert.equal(runs, 0);
    await sleep(60);
    await job.stop();
    assert.ok(runs >= 2, `${runs} runs`);
  });
});
