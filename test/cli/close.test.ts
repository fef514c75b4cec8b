import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parseStartOptions } from "../../src/stack/options.js";
import { startStack } from "../../src/stack/stack.js";
import { createLogger } from "../../src/http/index.js";
import { once } from "../../src/once.js";
import { FREE_PORTS } from "../support/ports.js";

describe("closing", () => {
  it("runs a one-time step once, however often and from wherever it is called", async () => {
    let runs = 0;
    const close = once(async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    await Promise.all([close(), close(), close()]);
    await close();
    assert.equal(runs, 1);
  });

  it("closes a running stack and every part in it once, when asked twice at once and again later", async () => {
    const dir = mkdtempSync(join(tmpdir(), "castnet-close-"));
    try {
      const stack = await startStack(
        parseStartOptions(["--data-dir", dir, ...FREE_PORTS], {}),
        createLogger("silent"),
      );
      const hub = stack.urls.hub!;
      assert.equal((await fetch(`${hub}/_health`)).status, 200);
      await Promise.all([stack.close(), stack.close()]);
      await stack.close();
      await assert.rejects(fetch(`${hub}/_health`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
