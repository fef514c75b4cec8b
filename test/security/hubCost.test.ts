/**
 * Attacks on what the hub spends before it knows a message is signed or a caller authenticated:
 * name recoveries and chain catch-ups for unsigned messages, request bodies read before RPC auth,
 * and a verifier thread that dies with submits in flight.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import type { FastifyRequest } from "fastify";
import type { OnChainEventSource } from "../../src/interfaces/chain.js";
import { listen } from "../../src/http/index.js";
import { basicAuth, parseRpcAuth } from "../../src/hub/api/auth.js";
import type { Hub } from "../../src/hub/index.js";
import { NAME_RECOVERIES_PER_SECOND } from "../../src/hub/follow/nameRecovery.js";
import { WorkerPool } from "../../src/hub/merge/verify.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import type { TransferFeed } from "../../src/interfaces/transferFeed.js";
import { testEngines } from "../support/databases.js";
import {
  castAdd,
  core,
  encode,
  newAccount,
  newSigner,
  options,
  post,
  registerName,
  startStack,
  unwrap,
  type Account,
  type Json,
  type Stack,
} from "../hub/support.js";

function bulk(messages: core.Message[]): Uint8Array {
  const writer = new BinaryWriter();
  for (const message of messages) writer.uint32(10).bytes(encode(message));
  return writer.finish();
}

function username(account: Account, value: string) {
  return core.makeUserDataAdd({ type: 6, value }, options(account), account.signer).then(unwrap);
}

function unsigned(message: core.Message): core.Message {
  return { ...message, signature: new Uint8Array(64) };
}

/** The chain source with its catch-up reads counted. */
function countedChain(source: OnChainEventSource, counter: { reads: number }): OnChainEventSource {
  return new Proxy(source, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (property === "eventsFromBlock") counter.reads++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

for (const engine of await testEngines()) {
  describe(`hub work before signatures and auth on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let hub: Hub;
    let alice: Account;
    const lookups: string[] = [];
    const chain = { reads: 0 };
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
      const feed = stack.registry.feed;
      // The hub hears of names only by recovering them: it neither follows nor is told of transfers.
      const recoverOnly: TransferFeed = {
        signer: () => feed.signer(),
        transfersAfter: async () => [],
        transfersByName: (name) => {
          lookups.push(name);
          return feed.transfersByName(name);
        },
        onTransfer: () => () => undefined,
      };
      // A frozen clock: the recovery budget of this second is never refilled during the test.
      const frozen = Date.now();
      hub = await stack.startSeparateHub({
        registry: recoverOnly,
        chain: countedChain(stack.chain.chain, chain),
        now: () => frozen,
      });
      await hub.service.syncChain();
    });
    after(async () => {
      await stack?.close();
    });

    it("recovers no name, tells nothing of names and catches up with no chain for unsigned messages", async () => {
      const ghosts = await Promise.all(
        Array.from({ length: 300 }, async (_, i) => unsigned(await username(alice, `ghost${i}`))),
      );
      const { signer } = await newSigner();
      const stranger = { fid: 999_999, signer } as unknown as Account;
      const strangers = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => unsigned(await castAdd(stranger, `who ${i}`))),
      );
      const reads = chain.reads;
      const response = await post(hub, "/v1/submitBulkMessages", bulk([...ghosts, ...strangers]));
      assert.equal(response.status, 200);
      const entries = response.body.messages as Json[];
      // Second review, finding 14: the first check an unsigned message fails is its signature, not
      // whether the name is registered (which would tell an unsigned caller who holds names).
      assert.deepEqual(
        entries.slice(0, 300).map((e) => e.message),
        ghosts.map(() => "invalid signature"),
      );
      assert.deepEqual(
        new Set(entries.slice(300).map((e) => e.errCode)),
        new Set(["bad_request.unknown_fid"]),
      );
      assert.deepEqual(lookups, []);
      assert.equal(chain.reads, reads);
    });

    it("recovers a name for a signed message", async () => {
      await registerName(stack, alice, "alicename");
      const taken = await post(hub, "/v1/submitMessage", encode(await username(alice, "alicename")));
      assert.equal(taken.status, 200, JSON.stringify(taken.body));
      assert.deepEqual(lookups, ["alicename"]);
    });

    it("caches a name it did not find", async () => {
      for (let i = 0; i < 2; i++) {
        const missing = await post(hub, "/v1/submitMessage", encode(await username(alice, "nobodyname")));
        assert.equal(missing.status, 400);
        assert.equal(missing.body.details, "name nobodyname is not registered");
      }
      assert.deepEqual(lookups, ["alicename", "nobodyname"]);
    });

    it("keeps name recoveries to a budget per second", async () => {
      const many = await Promise.all(Array.from({ length: 40 }, (_, i) => username(alice, `missing${i}`)));
      const response = await post(hub, "/v1/submitBulkMessages", bulk(many));
      assert.equal(response.status, 200);
      assert.ok(
        (response.body.messages as Json[]).every((e) => e.errCode === "bad_request.validation_failure"),
      );
      assert.equal(lookups.length, NAME_RECOVERIES_PER_SECOND);
    });

    it("refuses an unauthenticated bulk submit before reading its body", async () => {
      const guarded = await stack.startHub({ rpcAuth: "user:secret" });
      const { port } = new URL(await listen(guarded.app, "hub", "127.0.0.1", 0));
      const socket = connect(Number(port), "127.0.0.1");
      const answer = new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no answer while the body was incomplete")), 5000);
        socket.once("data", (chunk) => {
          clearTimeout(timer);
          resolve(chunk.toString("utf8"));
        });
      });
      socket.write(
        "POST /v1/submitBulkMessages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n" +
          `Content-Length: 8000000\r\n\r\n${"x".repeat(1000)}`,
      );
      try {
        const response = await answer;
        assert.match(response, /^HTTP\/1\.1 401 /);
        assert.match(response, /"details":"authentication failed: Authorization header is empty"/);
      } finally {
        socket.destroy();
      }
    });

    it(
      "answers every submit when a verifier thread dies, and verifies later ones",
      { timeout: 60_000 },
      async () => {
        const pool = new WorkerPool(2, NEUTRAL);
        const pooled = await stack.startHub({ verifier: pool });
        const warm = await post(pooled, "/v1/submitMessage", encode(await castAdd(alice, "warm")));
        assert.equal(warm.status, 200);
        const casts = await Promise.all(
          Array.from({ length: 200 }, (_, i) => castAdd(alice, `in flight ${i}`)),
        );
        const inFlight = casts.map((cast) => post(pooled, "/v1/submitMessage", encode(cast)));
        await new Promise((resolve) => setTimeout(resolve, 10));
        await pool.threads[0]!.terminate();
        const statuses = (await Promise.all(inFlight)).map((r) => r.status);
        assert.deepEqual(new Set(statuses), new Set([200]));

        for (const thread of [...pool.threads]) await thread.terminate();
        const later = await post(pooled, "/v1/submitMessage", encode(await castAdd(alice, "later")));
        assert.equal(later.status, 200, JSON.stringify(later.body));
      },
    );
  });
}

describe("hub RPC auth compare", () => {
  const check = basicAuth(parseRpcAuth("user:secret,other:password"));
  const attempt = (user: string, password: string) =>
    check({
      headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` },
    } as FastifyRequest);

  it("accepts only a configured pair, whichever half is wrong", async () => {
    await attempt("user", "secret");
    await attempt("other", "password");
    for (const [user, password] of [
      ["user", "password"],
      ["other", "secret"],
      ["user", "wrong"],
      ["wrong", "secret"],
      ["wrong", "wrong"],
    ] as const) {
      await assert.rejects(attempt(user, password), {
        message: "authentication failed: invalid username or password",
      });
    }
  });
});
