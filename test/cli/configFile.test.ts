/** castnet.config.json: start options and per-part settings; flags beat environment beat file beat defaults. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { privateKeyToAccount } from "viem/accounts";
import { createAccount } from "../../src/stack/account.js";
import { contextOf } from "../../src/cli/context.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { UsageError } from "../../src/usageError.js";
import { startStack } from "../../src/stack/stack.js";
import { requestKey } from "../../src/cli/writes.js";
import { createLogger } from "../../src/http/index.js";
import { signUsernameProof } from "../../src/protocol/eip712/index.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { FREE_PORTS } from "../support/ports.js";
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

  it("hands the per-part settings to the running parts: reserved names, rate limits, badge rule, deep links", async () => {
    const path = file("d.json", {
      "block-time": 0,
      // The custom scheme instead of the approval page, with the api section's scheme.
      deeplink: "scheme",
      registry: { reservedNames: ["castle"], rateLimit: { perFidPerHour: 1, perIpPerHour: 100 } },
      api: { powerBadgeRule: { minReactors: 2, windowDays: 7 }, deeplinkScheme: "myapp" },
    });
    const stack = await startStack(
      parseStartOptions(["--config", path, "--data-dir", join(dir, "stack"), ...FREE_PORTS], {}),
      createLogger("silent"),
    );
    try {
      const urls = stack.urls as Record<"registry" | "hub" | "api" | "chain", string>;
      const context = contextOf({
        registryUrl: urls.registry,
        hubUrl: urls.hub,
        apiUrl: urls.api,
        chainUrl: urls.chain,
        dataDir: join(dir, "cli"),
      });
      const claim = async (name: string) => {
        const account = await createAccount({ chainUrl: urls.chain, units: 1 });
        const custody = privateKeyToAccount(account.custodyPrivateKey);
        const claimOf = async (wanted: string) => {
          const timestamp = await context.registry.currentTime();
          const signature = await signUsernameProof(custody, NEUTRAL, {
            name: wanted,
            timestamp,
            owner: custody.address,
          });
          return context.registry.transfer({
            name: wanted,
            from: 0,
            to: account.fid,
            fid: account.fid,
            owner: custody.address,
            timestamp,
            signature,
          });
        };
        return { account, transfer: await claimOf(name), again: claimOf };
      };

      await assert.rejects(claim("castle"), /USERNAME_RESERVED/);
      const bravo = await claim("bravo");
      assert.equal(bravo.transfer.username, "bravo");
      await assert.rejects(
        bravo.again("bravo2"),
        new RegExp(`too many name requests for fid ${bravo.account.fid}; try again in \\d+ s`),
      );

      const badges = await (await fetch(`${urls.api}/v1/admin/power-badges`)).json();
      assert.deepEqual((badges as { result: { rule: unknown } }).result.rule, {
        minReactors: 2,
        windowDays: 7,
      });

      context.keystore().add("app", {
        fid: bravo.account.fid,
        custodyAddress: bravo.account.custodyAddress,
        custodyPrivateKey: bravo.account.custodyPrivateKey,
      });
      const request = await requestKey(context, "app");
      assert.match(request.deeplinkUrl, /^myapp:\/\//);
    } finally {
      await stack.close();
    }
  });
});
