/**
 * GET /metrics and GET /_ready on every part of the stack as `castnet start` composes it, over HTTP:
 * the exact metric names each part serves, that they move with the work (a merge, a refusal, a
 * transfer), who may read them, and readiness that waits for the hub's followers and its migrations.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import Database from "better-sqlite3";
import { privateKeyToAccount } from "viem/accounts";
import { type AccountDetails, createAccount } from "../../src/stack/account.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { createDevchain } from "../../src/devchain/index.js";
import { httpChainClient } from "../../src/interfaces/chainHttp.js";
import { createLogger, listen } from "../../src/http/index.js";
import { createHub } from "../../src/hub/index.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { httpTransferFeed } from "../../src/interfaces/transferFeedHttp.js";
import { testEngines } from "../support/databases.js";
import { FREE_PORTS } from "../support/ports.js";

type Part = "registry" | "hub" | "api" | "chain";
const PARTS: readonly Part[] = ["registry", "hub", "api", "chain"];
const logger = createLogger("silent");

/** The names each part must serve, besides the request histogram and the process metrics. */
const NAMES: Record<Part, readonly string[]> = {
  hub: [
    "castnet_hub_merges_total",
    "castnet_hub_refusals_total",
    "castnet_hub_verify_queue_depth",
    "castnet_hub_verify_batch_size",
    "castnet_hub_merge_group_size",
    "castnet_hub_events_written_total",
    "castnet_hub_event_streams",
    "castnet_hub_follower_lag_seconds",
  ],
  registry: ["castnet_registry_transfers_granted_total", "castnet_registry_transfers_refused_total"],
  api: ["castnet_clientapi_key_requests"],
  chain: ["castnet_devchain_block_number", "castnet_devchain_pending_transactions"],
};
const SHARED = [
  "castnet_http_request_duration_seconds",
  "process_cpu_user_seconds_total",
  "nodejs_heap_size_used_bytes",
];

/** Every sample of a Prometheus text page, as name → [labels, value]. */
function samples(text: string): Map<string, { labels: Record<string, string>; value: number }[]> {
  const found = new Map<string, { labels: Record<string, string>; value: number }[]>();
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const list = found.get(match[1]!) ?? [];
    list.push({ labels, value: Number(match[3]) });
    found.set(match[1]!, list);
  }
  return found;
}

/** The value of one sample (0 when it is not there yet: a labelled counter starts with no samples). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  const match = samples(text)
    .get(name)
    ?.find((sample) => Object.entries(labels).every(([key, v]) => sample.labels[key] === v));
  return match?.value ?? 0;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function castBy(account: AccountDetails, fid: number, text: string): Promise<Uint8Array> {
  const signer = new core.NobleEd25519Signer(Buffer.from(account.signerPrivateKey.slice(2), "hex"));
  const body = { text, embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 };
  const made = await core.makeCastAdd(body, { fid, network: core.FarcasterNetwork.MAINNET }, signer);
  return core.Message.encode(made._unsafeUnwrap()).finish();
}

for (const engine of await testEngines()) {
  describe(`metrics and readiness on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: RunningStack;
    let dataDir: string;
    let drop: () => Promise<void>;
    let url: Record<Part, string>;
    let alice: AccountDetails;

    const metrics = async (part: Part) => {
      const res = await fetch(`${url[part]}/metrics`);
      assert.equal(res.status, 200);
      return res.text();
    };
    const submit = (bytes: Uint8Array) =>
      fetch(`${url.hub}/v1/submitMessage`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: bytes,
      });

    before(async () => {
      const created = await engine.create();
      drop = created.drop;
      dataDir = mkdtempSync(join(tmpdir(), "castnet-metrics-"));
      const env: NodeJS.ProcessEnv =
        created.config.engine === "postgres" ? { DATABASE_URL: created.config.url } : {};
      const config = parseStartOptions([...["--data-dir", dataDir, "--block-time", "0"], ...FREE_PORTS], env);
      stack = await startStack(config, logger);
      url = stack.urls as typeof url;
      alice = await createAccount({ chainUrl: url.chain, units: 1 });
    });

    after(async () => {
      await stack?.close();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("serves each part's metrics under their exact names, with the process metrics", async () => {
      for (const part of PARTS) {
        const res = await fetch(`${url[part]}/metrics`);
        assert.equal(res.status, 200, part);
        assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
        const text = await res.text();
        for (const name of [...SHARED, ...NAMES[part]])
          assert.match(text, new RegExp(`^# TYPE ${name} `, "m"), `${part} serves ${name}`);
        // Each part serves its own: no other part's names.
        for (const other of PARTS.filter((p) => p !== part))
          for (const name of NAMES[other]) assert.doesNotMatch(text, new RegExp(`^# TYPE ${name} `, "m"));
      }
    });

    it("times requests by route pattern and status, never by raw URL", async () => {
      const labels = { route: "/v1/castsByFid", method: "GET", status: "200" };
      const before = value(await metrics("hub"), "castnet_http_request_duration_seconds_count", labels);
      assert.equal((await fetch(`${url.hub}/v1/castsByFid?fid=${alice.fid}`)).status, 200);
      assert.equal((await fetch(`${url.hub}/v1/nope/${alice.fid}`)).status, 404);
      const text = await metrics("hub");
      assert.equal(value(text, "castnet_http_request_duration_seconds_count", labels), before + 1);
      assert.ok(
        value(text, "castnet_http_request_duration_seconds_count", { route: "unmatched", status: "404" }) >=
          1,
      );
      assert.doesNotMatch(text, new RegExp(`fid=${alice.fid}|/v1/nope/`));
    });

    it("counts a merge, the events it wrote and its group commit; and a refusal by its errCode", async () => {
      const start = await metrics("hub");
      const accepted = await submit(await castBy(alice, alice.fid, "counted"));
      assert.equal(accepted.status, 200, await accepted.clone().text());
      let text = await metrics("hub");
      assert.equal(value(text, "castnet_hub_merges_total"), value(start, "castnet_hub_merges_total") + 1);
      assert.ok(
        value(text, "castnet_hub_events_written_total") > value(start, "castnet_hub_events_written_total"),
      );
      assert.ok(
        value(text, "castnet_hub_merge_group_size_count") >
          value(start, "castnet_hub_merge_group_size_count"),
      );
      assert.ok(
        value(text, "castnet_hub_verify_batch_size_count") >
          value(start, "castnet_hub_verify_batch_size_count"),
      );

      const refused = await submit(await castBy(alice, 999_999, "from a fid that does not exist"));
      assert.equal(refused.status, 400);
      const code = ((await refused.json()) as { errCode: string }).errCode;
      text = await metrics("hub");
      assert.equal(
        value(text, "castnet_hub_refusals_total", { code }),
        value(start, "castnet_hub_refusals_total", { code }) + 1,
      );
      assert.equal(value(text, "castnet_hub_merges_total"), value(start, "castnet_hub_merges_total") + 1);
      assert.equal(value(text, "castnet_hub_follower_lag_seconds", { source: "chain" }), 0);
      assert.equal(value(text, "castnet_hub_follower_lag_seconds", { source: "registry" }), 0);
    });

    it("counts open event streams", async () => {
      const controller = new AbortController();
      const stream = await fetch(`${url.hub}/v1/events/stream`, { signal: controller.signal });
      assert.equal(stream.status, 200);
      assert.equal(value(await metrics("hub"), "castnet_hub_event_streams"), 1);
      controller.abort();
      await until("the stream to close", async () =>
        value(await metrics("hub"), "castnet_hub_event_streams") === 0 ? true : undefined,
      );
    });

    it("counts the registry's grants and refusals by code", async () => {
      const start = await metrics("registry");
      const custody = privateKeyToAccount(alice.custodyPrivateKey);
      const timestamp = Math.floor(Date.now() / 1000);
      const claim = core.makeUserNameProofClaim({ name: "metered", owner: custody.address, timestamp });
      const signature = (
        await new core.ViemLocalEip712Signer(custody).signUserNameProofClaim(claim)
      )._unsafeUnwrap();
      const transfer = (sig: string) =>
        fetch(`${url.registry}/transfers`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            name: "metered",
            from: 0,
            to: alice.fid,
            fid: alice.fid,
            owner: custody.address,
            timestamp,
            signature: sig,
          }),
        });
      const bad = await transfer(`0x${"11".repeat(65)}`);
      assert.equal(bad.status, 400);
      const code = ((await bad.json()) as { code: string }).code;
      assert.equal((await transfer(`0x${Buffer.from(signature).toString("hex")}`)).status, 200);
      const text = await metrics("registry");
      const refusals = "castnet_registry_transfers_refused_total";
      assert.equal(value(text, refusals, { code }), value(start, refusals, { code }) + 1);
      const grants = "castnet_registry_transfers_granted_total";
      assert.equal(value(text, grants), value(start, grants) + 1);
    });

    it("reads the devchain's blocks and the client API's key requests when scraped", async () => {
      const head = (await (await fetch(`${url.chain}/v1/blocks/latest`)).json()) as { number: number };
      let text = await metrics("chain");
      assert.equal(value(text, "castnet_devchain_block_number"), head.number);
      assert.equal(value(text, "castnet_devchain_pending_transactions"), 0);
      await createAccount({ chainUrl: url.chain, units: 1 });
      text = await metrics("chain");
      assert.ok(value(text, "castnet_devchain_block_number") > head.number);
      text = await metrics("api");
      for (const state of ["pending", "submitting", "approved", "completed"])
        assert.ok(
          samples(text)
            .get("castnet_clientapi_key_requests")
            ?.some((s) => s.labels.state === state),
          state,
        );
    });

    it("keeps /metrics from other sites' pages, and /_ready open like /_health", async () => {
      for (const part of PARTS) {
        const fromPage = await fetch(`${url[part]}/metrics`, { headers: { origin: "https://evil.example" } });
        assert.equal(fromPage.status, 403, part);
        assert.equal(fromPage.headers.get("access-control-allow-origin"), null);
        const preflight = await fetch(`${url[part]}/metrics`, {
          method: "OPTIONS",
          headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
        });
        assert.equal(preflight.headers.get("access-control-allow-origin"), null);
        const ready = await fetch(`${url[part]}/_ready`, { headers: { origin: "https://evil.example" } });
        assert.equal(ready.status, 200, part);
        assert.equal(ready.headers.get("access-control-allow-origin"), "*");
        assert.deepEqual(await ready.json(), { status: "ready" });
      }
    });

    it("answers /_ready 503 until a hub has caught up with the chain, and while a migration is missing", async () => {
      const source = httpChainClient(url.chain);
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const held = {
        ...source,
        eventsFromBlock: async (from: number, limit: number) => {
          await gate;
          return source.eventsFromBlock(from, limit);
        },
      };
      const dir = mkdtempSync(join(tmpdir(), "castnet-ready-"));
      const path = join(dir, "hub.sqlite");
      const hub = await createHub({
        database: { engine: "sqlite", path },
        logger,
        naming: NEUTRAL,
        network: "mainnet",
        chain: held,
        registry: httpTransferFeed(url.registry),
        verifyWorkers: 0,
      });
      try {
        const base = await listen(hub.app, "hub", "127.0.0.1", 0);
        const ready = async () => {
          const res = await fetch(`${base}/_ready`);
          return { status: res.status, body: (await res.json()) as { status: string; reasons?: string[] } };
        };
        const waiting = await ready();
        assert.equal(waiting.status, 503);
        assert.equal(waiting.body.status, "not ready");
        assert.ok(
          waiting.body.reasons?.includes("chain follower: catching up"),
          String(waiting.body.reasons),
        );
        assert.ok(
          value(await (await fetch(`${base}/metrics`)).text(), "castnet_hub_follower_lag_seconds", {
            source: "chain",
          }) > 0,
        );
        open();
        await until("the hub to catch up", async () => ((await ready()).status === 200 ? true : undefined));
        assert.deepEqual((await ready()).body, { status: "ready" });

        const db = new Database(path);
        db.prepare("delete from hub_migrations where name = (select max(name) from hub_migrations)").run();
        db.close();
        const missing = await ready();
        assert.equal(missing.status, 503);
        assert.match(missing.body.reasons?.[0] ?? "", /^database: migrations not applied yet: \d{4}_\w+$/);
      } finally {
        open();
        await hub.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

describe("/metrics with an admin token", () => {
  it("needs the token as a Bearer credential, from loopback too", async () => {
    const chain = await createDevchain({
      database: { engine: "sqlite", path: ":memory:" },
      logger,
      blockTimeSeconds: 0,
      adminToken: "s3cret-token",
    });
    try {
      const base = await listen(chain.app, "chain", "127.0.0.1", 0);
      assert.equal((await fetch(`${base}/metrics`)).status, 401);
      const res = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer s3cret-token" } });
      assert.equal(res.status, 200);
      assert.match(await res.text(), /^# TYPE castnet_devchain_block_number gauge$/m);
    } finally {
      await chain.close();
    }
  });
});
