/** The per-key limiter every per-client limit uses (src/http/rateLimiter.ts). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RateLimiter } from "../../src/http/index.js";

describe("RateLimiter", () => {
  it("allows the whole hour's requests at once by default, then one per interval", () => {
    let now = 0;
    const limiter = new RateLimiter(60, () => now);
    for (let i = 0; i < 60; i++) {
      assert.equal(limiter.waitSeconds("a"), 0, `request ${i}`);
      limiter.take("a");
    }
    assert.equal(limiter.waitSeconds("a"), 60);
    now += 60_000;
    assert.equal(limiter.waitSeconds("a"), 0);
  });

  it("allows at most its burst at once, then one per interval, per key", () => {
    let now = 0;
    const limiter = new RateLimiter(3600, () => now, 5);
    for (let i = 0; i < 5; i++) {
      assert.equal(limiter.waitSeconds("a"), 0, `request ${i}`);
      limiter.take("a");
    }
    assert.equal(limiter.waitSeconds("a"), 1);
    assert.equal(limiter.waitSeconds("b"), 0);
    now += 1000;
    assert.equal(limiter.waitSeconds("a"), 0);
    limiter.take("a");
    assert.equal(limiter.waitSeconds("a"), 1);
    // Idle for the burst's length: the whole burst again, no more.
    now += 5000;
    for (let i = 0; i < 5; i++) limiter.take("a");
    assert.equal(limiter.waitSeconds("a"), 1);
  });

  it("refuses a rate or a burst that is not a positive number", () => {
    assert.throws(() => new RateLimiter(60, Date.now, 0), {
      message: "a burst must be a positive number of requests, not 0",
    });
    for (const perHour of [0, -1, Number.POSITIVE_INFINITY, Number.NaN])
      assert.throws(() => new RateLimiter(perHour, Date.now), {
        message: `a rate limit must be a positive number of requests per hour, not ${perHour}`,
      });
  });

  it("rounds a wait up to whole seconds", () => {
    let now = 0;
    const limiter = new RateLimiter(7, () => now, 1);
    limiter.take("a");
    // One request per 514,285.7 ms.
    assert.equal(limiter.waitSeconds("a"), 515);
    now += 514_285;
    assert.equal(limiter.waitSeconds("a"), 1);
    now += 1;
    assert.equal(limiter.waitSeconds("a"), 0);
  });

  it("holds its clock still while the clock reads earlier, so a step back costs no one a wait", () => {
    let now = 10 * 3_600_000;
    const limiter = new RateLimiter(60, () => now);
    for (let i = 0; i < 3; i++) limiter.take("a");
    now -= 3_600_000;
    // Three of sixty spent, as before the step: no wait.
    assert.equal(limiter.waitSeconds("a"), 0);
    for (let i = 0; i < 57; i++) limiter.take("a");
    // The hour's sixty spent, with the clock still where it was: one a minute from there.
    assert.equal(limiter.waitSeconds("a"), 60);
  });
});
