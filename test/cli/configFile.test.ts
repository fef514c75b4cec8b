/** castnet.config.json: start options and per-part settings; flags beat environment beat file beat defaults. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { UsageError, parseStartOptions } from "../../src/cli/options.js";
import { castnet, errorLines, json } from "./run.js";

describe("the config file", () => {
  const dir = mkdtempSync(join(tmpdir(), "castnet-config-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
    return path;
  };

  it("sets start options under the environment and the flags, and per-part settings", () => {
    const path = file("a.json", {
      "hub-port": 3001,
      "api-port": 3002,
      "registry-port": 3003,
      naming: "reference",
      "trusted-origins": ["https://admin.example"],
      registry: { reservedNames: ["admin"], rateLimit: false },
      hub: { mergesPerUnit: 10 },
      api: { sponsorCost: 5, powerBadgeRule: { minReactors: 2 }, deeplinkScheme: "myapp" },
    });
    const config = parseStartOptions(["--config", path, "--hub-port", "4001"], { CASTNET_API_PORT: "4002" });
    assert.deepEqual(config.ports, { registry: 3003, hub: 4001, api: 4002, chain: 2284 });
    assert.equal(config.naming, "reference");
    assert.deepEqual(config.http.trustedOrigins, ["https://admin.example"]);
    assert.deepEqual(config.parts, {
      registry: { reservedNames: ["admin"], rateLimit: false },
      hub: { mergesPerUnit: 10 },
      api: { sponsorCost: 5, powerBadgeRule: { minReactors: 2 }, deeplinkScheme: "myapp" },
    });
    assert.equal(parseStartOptions([], { CASTNET_CONFIG: path }).ports.hub, 3001);
  });

  for (const [content, message] of [
    [{ "hub-prot": 1 }, /unknown setting "hub-prot"/],
    [{ api: { sponsorCost: "free" } }, /"api.sponsorCost" must be a number/],
    [{ hub: { streams: 1 } }, /unknown setting "hub.streams"/],
    [{ "hub-port": "http" }, /--hub-port must be a port number/],
    ["{not json", /b.json: /],
  ] as const) {
    it(`refuses ${JSON.stringify(content)} with one sentence`, () => {
      const path = file("b.json", content);
      assert.throws(
        () => parseStartOptions(["--config", path], {}),
        (e: unknown) => e instanceof UsageError && message.test(e.message) && !e.message.includes("\n"),
      );
    });
  }

  it("refuses a named file that is not there, and ignores a missing default one", () => {
    assert.throws(() => parseStartOptions(["--config", join(dir, "none.json")], {}), UsageError);
    assert.deepEqual(parseStartOptions([], {}).parts, { registry: {}, hub: {}, api: {} });
  });

  it("prints the configuration it would start with", async () => {
    const path = file("c.json", { "block-time": 0, api: { deeplinkScheme: "myapp" } });
    const printed = json<Record<string, unknown>>(
      await castnet({ CASTNET_ADMIN_TOKEN: "s3cret" }, "start", "--config", path, "--print-config"),
    );
    assert.equal(printed.blockTimeSeconds, 0);
    assert.equal(printed.adminToken, "(set)");
    assert.deepEqual(printed.parts, { registry: {}, hub: {}, api: { deeplinkScheme: "myapp" } });
    const bad = await castnet({}, "start", "--config", join(dir, "none.json"));
    assert.equal(bad.status, 2);
    assert.deepEqual(errorLines(bad), [`castnet: --config: there is no ${join(dir, "none.json")}`]);
  });
});
