/**
 * Findings 11, 12a-c: the client API under attack. 12a: the hub's activity read the power-badge job
 * uses; 12b: the client API started alone; 12c: signed key requests in bulk; 11: one slow chain call.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import { createClientApi } from "../../src/clientapi/index.js";
import { parseStartOptions } from "../../src/cli/options.js";
import { type RunningStack, startStack as startCliStack } from "../../src/cli/stack.js";
import { createLogger } from "../../src/http/index.js";
import { httpActivitySource } from "../../src/hub/activityClient.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { testEngines } from "../support/databases.js";
import {
  type Account,
  type Stack,
  castAdd,
  encode,
  newAccount,
  options,
  protocolNow,
  startStack,
  unwrap,
} from "../hub/support.js";

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");
const TOKEN = "operator-token-for-the-activity-read";
const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `author` casts once and each of `reactors` likes it. */
async function reactions(stack: Stack, author: Account, reactors: Account[]): Promise<void> {
  const cast = await castAdd(author, "popular");
  await stack.hub.service.submitMessage(encode(cast));
  for (const reactor of reactors) {
    const like = unwrap(
      await core.makeReactionAdd(
        { type: 1, targetCastId: { fid: author.fid, hash: cast.hash } },
        options(reactor, protocolNow()),
        reactor.signer,
      ),
    );
    await stack.hub.service.submitMessage(encode(like));
  }
}

for (const engine of await testEngines()) {
  describe(`12a: the hub's activity read on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let author: Account;
    const path = (since: number) => `/v1/activity/reactorsByAuthor?since=${since}`;

    before(async () => {
      stack = await startStack(engine, { adminToken: TOKEN });
      author = await newAccount(stack);
      const reactors = [];
      for (let i = 0; i < 3; i++) reactors.push(await newAccount(stack));
      await reactions(stack, author, reactors);
    });
    after(async () => stack?.close());

    it("refuses a caller without the admin token, from anywhere", async () => {
      for (const remoteAddress of ["203.0.113.9", "127.0.0.1"]) {
        const reply = await stack.hub.app.inject({ url: path(nowSeconds() - DAY), remoteAddress });
        assert.equal(reply.statusCode, 401);
        assert.equal(reply.json().errCode, "unauthenticated");
        assert.equal(reply.json().details, "this operator endpoint needs the admin token as a Bearer token");
      }
    });

    it("refuses a non-loopback caller when the hub has no admin token", async () => {
      const open = await stack.startHub({ adminToken: undefined });
      const reply = await open.app.inject({ url: path(nowSeconds() - DAY), remoteAddress: "203.0.113.9" });
      assert.equal(reply.statusCode, 403);
      assert.equal(reply.json().errCode, "unauthorized");
      const local = await open.app.inject({ url: path(nowSeconds() - DAY), remoteAddress: "127.0.0.1" });
      assert.equal(local.statusCode, 200);
    });

    it("refuses a since further back than the window, with a sentence", async () => {
      const headers = { authorization: `Bearer ${TOKEN}` };
      for (const since of [0, 1, nowSeconds() - 91 * DAY]) {
        const reply = await stack.hub.app.inject({ url: path(since), headers, remoteAddress: "203.0.113.9" });
        assert.equal(reply.statusCode, 400);
        assert.equal(reply.json().errCode, "bad_request.validation_failure");
        assert.match(
          reply.json().details,
          /^since must be at most 90 days ago \(no earlier than \d+, \d{4}-\d\d-\d\dT[\d:.]+Z\)$/,
        );
      }
      const ok = await stack.hub.app.inject({
        url: path(nowSeconds() - 89 * DAY),
        headers,
        remoteAddress: "203.0.113.9",
      });
      assert.equal(ok.statusCode, 200);
      assert.deepEqual(ok.json(), { authors: [{ fid: author.fid, reactors: 3 }] });
    });

    it("answers repeated reads from a short cache instead of scanning again", async () => {
      const headers = { authorization: `Bearer ${TOKEN}` };
      const since = nowSeconds() - DAY;
      const first = await stack.hub.app.inject({ url: path(since), headers });
      const extra = await newAccount(stack);
      await reactions(stack, extra, [author]);
      const second = await stack.hub.app.inject({ url: path(since), headers });
      assert.deepEqual(second.json(), first.json());
    });

    it("serves the power-badge job over HTTP with the token", async () => {
      const url = `http://127.0.0.1:${await listenPort(stack)}`;
      const refused = httpActivitySource(url);
      await assert.rejects(refused.reactorsByAuthor(nowSeconds() - DAY), {
        message: `hub at ${url} answered 401 for /v1/activity/reactorsByAuthor: this operator endpoint needs the admin token as a Bearer token`,
      });
      const dir = mkdtempSync(join(tmpdir(), "castnet-badges-"));
      const api = await createClientApi({
        database: { engine: "sqlite", path: join(dir, "api.sqlite") },
        logger: createLogger("silent"),
        chain: stack.chain.chain,
        naming: NEUTRAL,
        activity: httpActivitySource(url, { adminToken: TOKEN }),
        powerBadgeRule: { minReactors: 3 },
      });
      try {
        const run = await api.service.powerBadges.recalculate();
        assert.equal(run.computedCount, 1);
        assert.deepEqual(await api.service.powerBadges.holders(), [author.fid]);
      } finally {
        await api.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

async function listenPort(stack: Stack): Promise<number> {
  const address = stack.hub.app.server.address();
  if (address && typeof address === "object") return address.port;
  await stack.hub.app.listen({ host: "127.0.0.1", port: 0 });
  return (stack.hub.app.server.address() as { port: number }).port;
}

describe("12b: castnet start --only api against a chain and hub elsewhere", () => {
  const dirs: string[] = [];
  let others: RunningStack;
  let child: ChildProcess | undefined;
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), "castnet-only-api-"));
    dirs.push(dir);
    return dir;
  };

  before(async () => {
    const config = parseStartOptions(
      ["--only", "chain,registry,hub", "--data-dir", scratch(), "--block-time", "0"],
      {
        CASTNET_REGISTRY_PORT: "0",
        CASTNET_HUB_PORT: "0",
        CASTNET_CHAIN_PORT: "0",
        CASTNET_ADMIN_TOKEN: TOKEN,
      },
    );
    others = await startCliStack(config, createLogger("silent"));
  });
  after(async () => {
    child?.kill("SIGTERM");
    await others?.close();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it("starts, serves the client API's routes, and reads hub activity with the admin token", async () => {
    child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        MAIN,
        "start",
        "--only",
        "api",
        "--api-port",
        "0",
        "--data-dir",
        scratch(),
        "--chain-url",
        others.urls.chain!,
        "--hub-url",
        others.urls.hub!,
      ],
      {
        env: { ...process.env, CASTNET_LOG_LEVEL: "silent", CASTNET_ADMIN_TOKEN: TOKEN },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (!output.includes("Press Ctrl+C") && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 100));
    const api = /client API\s+(http:\/\/\S+)/.exec(output)?.[1];
    assert.ok(api, output);

    const channels = await fetch(`${api}/v2/all-channels`);
    assert.equal(channels.status, 200);
    assert.deepEqual(await channels.json(), { result: { channels: [] } });
    const run = await fetch(`${api}/v1/admin/power-badges/recalculate`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(run.status, 200, await run.clone().text());
    assert.equal(
      ((await run.json()) as { result: { run: { computedCount: number } } }).result.run.computedCount,
      0,
    );
  });
});
