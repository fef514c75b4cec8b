/**
 * Findings 11, 12a-c: the client API under attack. 12a: the hub's activity read the power-badge job
 * uses; 12b: the client API started alone; 12c: signed key requests in bulk; 11: one slow chain call.
 * Second review, finding 3: per-fid budgets are spent only by requests whose signature verifies;
 * finding 7: redirect URLs are web or app links only.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import type { Hex } from "viem";
import { createClientApi } from "../../src/clientapi/index.js";
import type { ClientApiTables } from "../../src/clientapi/tables.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack as startCliStack } from "../../src/stack/stack.js";
import type { ChainClient } from "../../src/interfaces/chain.js";
import { createLogger, listen } from "../../src/http/index.js";
import { httpActivitySource } from "../../src/interfaces/activityHttp.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { type Database, openDatabase } from "../../src/storage/index.js";
import {
  type Harness,
  type Wallet,
  call,
  errorOf,
  randomKey,
  registerWallet,
  startHarness,
} from "../clientapi/support.js";
import { CASTNET_MAIN, userEnv } from "../support/cli.js";
import { testEngines } from "../support/databases.js";
import { FREE_PORTS } from "../support/ports.js";
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
    });

    it("accepts a loopback caller when the hub has no admin token", async () => {
      const open = await stack.startHub({ adminToken: undefined });
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
    });

    it("answers a since within the window", async () => {
      const headers = { authorization: `Bearer ${TOKEN}` };
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
      ["--only", "chain,registry,hub", "--data-dir", scratch(), "--block-time", "0", ...FREE_PORTS],
      { CASTNET_ADMIN_TOKEN: TOKEN },
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
        CASTNET_MAIN,
        "start",
        "--only",
        "api",
        ...FREE_PORTS,
        "--data-dir",
        scratch(),
        "--chain-url",
        others.urls.chain!,
        "--hub-url",
        others.urls.hub!,
      ],
      {
        env: { ...userEnv(), CASTNET_LOG_LEVEL: "silent", CASTNET_ADMIN_TOKEN: TOKEN },
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

const VALIDATOR = "0x00000000FC700472606ED4fA22623Acf62c60553";

/** What an app does: sign {requestFid, key, deadline} with its custody key (SPEC B, Authentication 4). */
function signRequest(app: Wallet, key: Hex, deadline: number): Promise<Hex> {
  return app.account.signTypedData({
    domain: {
      name: "Service SignedKeyRequestValidator",
      version: "1",
      chainId: 10,
      verifyingContract: VALIDATOR,
    },
    types: {
      SignedKeyRequest: [
        { name: "requestFid", type: "uint256" },
        { name: "key", type: "bytes" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "SignedKeyRequest",
    message: { requestFid: BigInt(app.fid), key, deadline: BigInt(deadline) },
  });
}

/** A chain whose key adds wait for `release()` (or fail after reaching the chain, as a crash would). */
class SlowChain {
  private open: () => void = () => undefined;
  private gate = new Promise<void>((resolve) => (this.open = resolve));
  /** "crash-after": the key add reaches the chain, then the caller never hears back. */
  mode: "wait" | "crash-after" = "wait";
  waiting = 0;
  readonly client: ChainClient;

  constructor(real: ChainClient) {
    this.client = {
      getAccount: (fid) => real.getAccount(fid),
      custodyOf: (fid) => real.custodyOf(fid),
      fidOf: (custody) => real.fidOf(custody),
      getTransaction: (hash) => real.getTransaction(hash),
      submitKeyAdd: async (request) => {
        if (this.mode === "crash-after") {
          await real.submitKeyAdd(request);
          throw new Error("socket hang up");
        }
        this.waiting++;
        await this.gate;
        return real.submitKeyAdd(request);
      },
    };
  }

  release(): void {
    this.open();
    this.gate = new Promise<void>((resolve) => (this.open = resolve));
    this.waiting = 0;
  }
}

for (const engine of await testEngines()) {
  describe(`signed key requests under attack on ${engine.engine}`, { skip: engine.skip }, () => {
    let h: Harness;
    let offset = 0;
    let slow: SlowChain;
    let app: Wallet;
    let user: Wallet;
    let db: Database<ClientApiTables>;
    const now = () => Date.now() + offset;
    const seconds = () => Math.floor(now() / 1000);
    const rows = async () =>
      Number(
        (
          await db.db
            .selectFrom("api_signed_key_requests")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const signersWith = async (key: Hex) =>
      (await h.devchain.chain.getAccount(user.fid))!.signers.filter((s) => s.key === key).length;

    async function body(wallet = app, key = randomKey(), deadline = seconds() + DAY) {
      return { key, requestFid: wallet.fid, deadline, signature: await signRequest(wallet, key, deadline) };
    }
    const create = async (payload: object) => call(h.url, "POST", "/v2/signed-key-request", payload);
    const state = async (token: string) =>
      (await call(h.url, "GET", `/v2/signed-key-request?token=${token}`)).body.result.signedKeyRequest;

    async function approve(token: string, wallet: Wallet) {
      const reply = await call(
        h.url,
        "GET",
        `/v2/signed-key-request/approval?token=${token}&fid=${wallet.fid}`,
      );
      // The loser of a race for one request may be refused here already, before it signs.
      if (reply.status !== 200) return reply;
      const typed = reply.body.result.typedData;
      return call(h.url, "POST", "/v2/signed-key-request/approval", {
        token,
        fid: wallet.fid,
        nonce: typed.message.nonce,
        deadline: typed.message.deadline,
        signature: await wallet.account.signTypedData(typed as never),
      });
    }

    before(async () => {
      h = await startHarness(engine, {
        now,
        pollIntervalMs: 50,
        keyRequestLimits: { perFidPerHour: 6, perAddressPerHour: 12 },
        keyRequestRetentionMs: 3_600_000,
      });
      slow = new SlowChain(h.devchain.chain);
      await h.api.close();
      h.api = await h.restart({ chain: slow.client });
      h.url = await listen(h.api.app, "api", "127.0.0.1", 0);
      db = openDatabase<ClientApiTables>(h.apiDatabase);
      app = await registerWallet(h.devchain);
      user = await registerWallet(h.devchain);
    });
    after(async () => {
      // A failed test may leave an approval waiting for the chain; let it finish so that close does not wait.
      slow?.release();
      await db?.close();
      await h?.close();
    });

    it("12c: answers the same signed request again with the same request, not a new row", async () => {
      const payload = await body();
      const before = await rows();
      const first = await create(payload);
      assert.equal(first.status, 200);
      for (let i = 0; i < 3; i++) assert.deepEqual(await create(payload), first);
      assert.equal(await rows(), before + 1);
    });

    it("12c: limits creation per requesting fid, with 429 and Retry-After", async () => {
      const limited = await registerWallet(h.devchain);
      for (let i = 0; i < 6; i++) assert.equal((await create(await body(limited))).status, 200);
      const refused = await fetch(`${h.url}/v2/signed-key-request`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(await body(limited)),
      });
      assert.equal(refused.status, 429);
      const wait = Number(refused.headers.get("retry-after"));
      assert.ok(wait > 0 && wait <= 600, String(wait));
      assert.deepEqual(await refused.json(), {
        errors: [{ message: `too many signed key requests for fid ${limited.fid}; try again in ${wait} s` }],
      });
    });

    it("second review 3: junk requests naming an app's fid spend none of its budget", async () => {
      const victim = await registerWallet(h.devchain);
      const junk = await body(victim);
      junk.signature = await signRequest(await registerWallet(h.devchain), junk.key, junk.deadline);
      const from = (client: number, payload: object) =>
        h.api.app.inject({
          method: "POST",
          url: "/v2/signed-key-request",
          payload,
          remoteAddress: `2001:db8:0:9${client.toString(16).padStart(3, "0")}::1`,
        });
      for (let i = 0; i < 20; i++) {
        const refused = await from(i, { ...junk, key: randomKey() });
        assert.equal(refused.statusCode, 400, refused.body);
      }
      // The app's own requests, from its own address, get the whole budget of its fid.
      for (let i = 0; i < 6; i++) assert.equal((await from(100, await body(victim))).statusCode, 200);
      assert.equal((await from(101, await body(victim))).statusCode, 429);
    });

    it("second review 7: refuses a redirectUrl a wallet would run or open as a local document", async () => {
      const from = (client: number, payload: object) =>
        h.api.app.inject({
          method: "POST",
          url: "/v2/signed-key-request",
          payload,
          remoteAddress: `2001:db8:0:a${client.toString(16).padStart(3, "0")}::1`,
        });
      const schemes = [
        "javascript:alert(document.cookie)",
        "data:text/html,<script>1</script>",
        "JavaScript:void(0)",
        "vbscript:x",
        "file:///etc/passwd",
        "blob:https://a.example/1",
      ];
      const fresh = await registerWallet(h.devchain);
      for (const [i, redirectUrl] of schemes.entries()) {
        const refused = await from(i, { ...(await body(fresh)), redirectUrl });
        assert.equal(refused.statusCode, 400, redirectUrl);
        assert.deepEqual(refused.json(), {
          errors: [
            { message: "redirectUrl must be an http(s) URL or an app's own scheme (such as myapp://done)" },
          ],
        });
      }
      for (const [i, redirectUrl] of [
        "https://app.example/done",
        "http://127.0.0.1:3000/",
        "myapp://signed-in",
      ].entries()) {
        const accepted = await from(100 + i, { ...(await body(fresh)), redirectUrl });
        assert.equal(accepted.statusCode, 200, redirectUrl);
      }
    });

    it("12c: limits creation per client address (an IPv6 client by its /64)", async () => {
      const inject = async (remoteAddress: string) =>
        h.api.app.inject({
          method: "POST",
          url: "/v2/signed-key-request",
          payload: await body(await registerWallet(h.devchain)),
          remoteAddress,
        });
      for (let i = 0; i < 12; i++) assert.equal((await inject(`2001:db8:0:7::${i + 1}`)).statusCode, 200);
      const refused = await inject("2001:db8:0:7:ffff::1");
      assert.equal(refused.statusCode, 429);
      const wait = Number(refused.headers["retry-after"]);
      assert.deepEqual(refused.json(), {
        errors: [{ message: `too many signed key requests from this address; try again in ${wait} s` }],
      });
      assert.equal((await inject("2001:db8:0:8::1")).statusCode, 200);
    });

    let expired: string;

    it("12c: an expired request cannot be approved", async () => {
      const created = await create(await body(user, randomKey(), seconds() + 60));
      expired = created.body.result.signedKeyRequest.token;
      const token = expired;
      offset += 120_000;
      const refused = await call(
        h.url,
        "GET",
        `/v2/signed-key-request/approval?token=${token}&fid=${user.fid}`,
      );
      assert.equal(refused.status, 409);
      assert.match(
        refused.body.errors[0].message,
        /^this signed key request expired at .*; the app must make a new one$/,
      );
    });

    it("12c: an expired request is deleted later by the background loop", async () => {
      const token = expired;
      offset += 3_600_000;
      const deadline = Date.now() + 5000;
      while (
        (await call(h.url, "GET", `/v2/signed-key-request?token=${token}`)).status === 200 &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(await call(h.url, "GET", `/v2/signed-key-request?token=${token}`), {
        status: 404,
        body: errorOf(`No signed key request found with token ${token}`),
      });
    });

    let slowKey: Hex;
    let slowRequest: { token: string };
    let approvals: ReturnType<typeof approve>[];

    it("11: a slow key add holds up no other write", async () => {
      slowKey = randomKey();
      const key = slowKey;
      const request = (await create(await body(app, key))).body.result.signedKeyRequest;
      slowRequest = request;
      const other = await registerWallet(h.devchain);
      approvals = [approve(request.token, user), approve(request.token, other)];
      const deadline = Date.now() + 5000;
      while (slow.waiting === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(slow.waiting, 1);
      assert.equal((await state(request.token)).state, "pending");

      const started = Date.now();
      assert.equal((await create(await body())).status, 200);
      assert.equal((await call(h.url, "PUT", "/v1/admin/power-badges/99", { badge: "grant" })).status, 200);
      assert.ok(Date.now() - started < 2000, `other writes took ${Date.now() - started} ms`);
    });

    it("11: only one of two simultaneous approvals goes through a slow key add", async () => {
      const key = slowKey;
      const request = slowRequest;
      slow.release();
      const replies = await Promise.all(approvals);
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409]);
      await h.devchain.chain.mine();
      const winner = replies.find((r) => r.status === 200)!.body.result.signedKeyRequest.userFid;
      assert.equal(
        (await h.devchain.chain.getAccount(winner))!.signers.filter((s) => s.key === key).length,
        1,
      );
      assert.equal((await state(request.token)).state, "completed");
    });

    for (const reached of [true, false]) {
      it(`11: an approval cut off ${reached ? "after" : "before"} its key add reached the chain is resolved at the next start`, async () => {
        const key = randomKey();
        const request = (await create(await body(app, key))).body.result.signedKeyRequest;
        slow.mode = "crash-after";
        const client = reached
          ? slow.client
          : { ...slow.client, submitKeyAdd: async () => Promise.reject(new Error("socket hang up")) };
        await h.api.close();
        h.api = await h.restart({ chain: client });
        h.url = await listen(h.api.app, "api", "127.0.0.1", 0);
        const cut = await approve(request.token, user);
        assert.deepEqual(cut, {
          status: 503,
          body: errorOf("the chain is unavailable; could not read or write the key add"),
        });
        assert.equal((await state(request.token)).state, "pending");
        slow.mode = "wait";

        // The next start, later: the request is resolved against the chain, once.
        offset += 600_000;
        await h.api.close();
        h.api = await h.restart({ chain: h.devchain.chain });
        h.url = await listen(h.api.app, "api", "127.0.0.1", 0);
        const until = Date.now() + 5000;
        while ((await state(request.token)).state === "pending" && Date.now() < until) {
          await h.devchain.chain.mine();
          await new Promise((r) => setTimeout(r, 50));
        }
        await h.devchain.chain.mine();
        while ((await state(request.token)).state !== "completed" && Date.now() < until)
          await new Promise((r) => setTimeout(r, 50));
        assert.deepEqual(await state(request.token), {
          token: request.token,
          deeplinkUrl: request.deeplinkUrl,
          key,
          state: "completed",
          requestFid: app.fid,
          isSponsored: false,
          userFid: user.fid,
        });
        assert.equal(await signersWith(key), 1);
      });
    }
  });
}
