/**
 * What a person reads: log lines at a terminal, and the progress of long work, on a terminal and
 * elsewhere. (process.test.ts checks that logs stay JSON lines when stderr is not a terminal.)
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { progress } from "../../src/cli/progress.js";
import { catchUpLines, migrationLines } from "../../src/cli/startProgress.js";
import { prettyLine } from "../../src/http/prettyLog.js";

const TIME = Date.UTC(2026, 0, 2, 13, 4, 5);

describe("readable output", () => {
  it("turns a JSON log line into time, level word, part and message, then the fields worth reading", () => {
    const request = {
      level: 20,
      time: TIME,
      pid: 7,
      hostname: "box",
      part: "hub",
      reqId: "req-1",
      method: "GET",
      url: "/v1/info",
      status: 200,
      ms: 1.5,
      msg: "request",
    };
    assert.equal(
      prettyLine(JSON.stringify(request)),
      "13:04:05 DEBUG hub       request method=GET url=/v1/info status=200 ms=1.5",
    );
    const failure = {
      level: 50,
      time: TIME,
      part: "clientapi",
      err: { message: "boom", stack: "…" },
      msg: "failed",
    };
    assert.equal(
      prettyLine(JSON.stringify(failure), true),
      "\x1b[31m13:04:05 ERROR clientapi failed (boom)\x1b[0m",
    );
    const unbound = { level: 30, time: TIME, slot: 5, msg: "power badges recalculated" };
    assert.equal(
      prettyLine(JSON.stringify(unbound)),
      "13:04:05 INFO  castnet   power badges recalculated slot=5",
    );
    assert.equal(prettyLine("not json"), "not json");
  });

  it("shows progress as plain lines, a tenth of the way at a time, when not on a terminal", () => {
    let written = "";
    const shown = progress("seeding the demo:", 20, { isTTY: false, write: (text) => (written += text) });
    for (let done = 1; done <= 20; done++) shown.update(done);
    shown.finish("seeded the demo: 20 new items");
    assert.equal(
      written,
      [1, 2, 4, 6, 8, 10, 12, 14, 16, 18].map((n) => `seeding the demo: ${n} of 20\n`).join("") +
        "seeded the demo: 20 new items\n",
    );
  });

  it("updates one line in place on a terminal", () => {
    let written = "";
    const shown = progress("seeding the demo:", 2, { isTTY: true, write: (text) => (written += text) });
    shown.update(1);
    shown.update(2);
    shown.finish("done");
    assert.equal(
      written,
      "\r\x1b[2Kseeding the demo: 1 of 2\r\x1b[2Kseeding the demo: 2 of 2\r\x1b[2Kdone\n",
    );
  });

  it("shows a part's migrations as they apply, and the hub's catch-up, as plain lines", () => {
    let written = "";
    const out = { isTTY: false, write: (text: string) => (written += text) };
    const migrations = migrationLines("hub", out);
    for (const applied of [0, 1, 2]) migrations(applied, 2);
    const catchUp = catchUpLines(out);
    for (const done of [0, 30, 35, 95, 120]) catchUp("chain", { done, total: 200, finished: false });
    catchUp("registry", { done: 100, total: undefined, finished: false });
    catchUp("chain", { done: 200, total: 200, finished: true });
    catchUp("registry", { done: 150, total: undefined, finished: true });
    assert.equal(
      written,
      [
        "migrations: hub 0 of 2",
        "migrations: hub 1 of 2",
        "migrations: hub: 2 applied",
        "hub catching up with the chain: block 0 of 200",
        "hub catching up with the chain: block 30 of 200",
        "hub catching up with the chain: block 95 of 200",
        "hub catching up with the chain: block 120 of 200",
        "hub caught up with the chain at block 200",
        "hub caught up with the registry: 150 transfers merged",
        "",
      ].join("\n"),
    );
  });

  it("updates the registry's count of transfers in place on a terminal", () => {
    let written = "";
    const catchUp = catchUpLines({ isTTY: true, write: (text) => (written += text) });
    catchUp("registry", { done: 100, total: undefined, finished: false });
    catchUp("registry", { done: 150, total: undefined, finished: true });
    assert.equal(
      written,
      "\r\x1b[2Khub catching up with the registry: transfers 100\r\x1b[2Khub caught up with the registry: 150 transfers merged\n",
    );
  });
});
