/** Beyond the reference: bulk submits, the SSE event stream, and RPC auth on submits. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FidRateLimit } from "../../src/hub/merge/fidRateLimit.js";
import { listen } from "../../src/http/index.js";
import { testEngines } from "../support/databases.js";
import {
  castAdd,
  core,
  encode,
  get,
  hex,
  newAccount,
  post,
  startStack,
  type Account,
  type Json,
  type Stack,
} from "./support.js";

function bulk(messages: core.Message[]): Uint8Array {
  return core.SubmitBulkMessagesRequest.encode({ messages }).finish();
}

/** Reads server-sent events from a response body until `count` have arrived. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  count: number,
): Promise<{ id: number; data: Json }[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: { id: number; data: Json }[] = [];
  let buffer = "";
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: (\d+)$/m.exec(block);
      const data = /^data: (.*)$/m.exec(block);
      if (id && data) events.push({ id: Number(id[1]), data: JSON.parse(data[1]!) });
    }
  }
  await reader.cancel();
  return events;
}

for (const engine of await testEngines()) {
  describe(`hub submits and streams on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
    });
    after(async () => {
      await stack?.close();
    });

    it("merges or refuses each message of a bulk submit on its own, in order", async () => {
      const one = await castAdd(alice, "bulk one");
      const two = await castAdd(alice, "bulk two");
      const forged = { ...(await castAdd(alice, "forged")), signature: new Uint8Array(64) };
      const response = await post(stack, "/v1/submitBulkMessages", bulk([one, forged, two, one]));
      assert.equal(response.status, 200);
      const entries = response.body.messages as Json[];
      assert.equal(entries.length, 4);
      assert.equal(entries[0].hash, hex(one.hash));
      assert.equal(entries[0].data.castAddBody.text, "bulk one");
      assert.deepEqual(entries[1], {
        hash: hex(forged.hash),
        errCode: "bad_request.validation_failure",
        message: "invalid signature",
      });
      assert.equal(entries[2].data.castAddBody.text, "bulk two");
      assert.deepEqual(entries[3], {
        hash: hex(one.hash),
        errCode: "bad_request.duplicate",
        message: "message has already been merged",
      });
      const stored = (await get(stack, `/v1/castsByFid?fid=${alice.fid}`)).body.messages.map(
        (m: Json) => m.hash,
      );
      assert.deepEqual(stored.sort(), [hex(one.hash), hex(two.hash)].sort());
    });

    it("refuses an empty bulk submit", async () => {
      const empty = await post(stack, "/v1/submitBulkMessages", new Uint8Array());
      assert.equal(empty.status, 400);
    });

    it("refuses a bulk submit it cannot decode as a parse failure", async () => {
      const garbage = await post(stack, "/v1/submitBulkMessages", new Uint8Array([10, 200, 1, 2]));
      assert.equal(garbage.status, 400);
      assert.equal(garbage.body.errCode, "bad_request.parse_failure");
    });

    describe("the event stream", () => {
      let url: string;
      let pushed: { id: number; data: Json };
      before(async () => {
        url = await listen(stack.hub.app, "hub", "127.0.0.1", 0);
      });
      after(() => {
        // An open stream does not keep the hub from closing (the suite's after() closes it).
        void fetch(`${url}/v1/events/stream`).then((r) => r.body?.cancel());
      });

      it("replays the log from an event id as server-sent events", async () => {
        const everything = (await get(stack, "/v1/events?from_event_id=0")).body.events as Json[];
        const from = everything[2].id;
        const replay = await fetch(`${url}/v1/events/stream?from_event_id=${from}`);
        assert.equal(replay.status, 200);
        assert.equal(replay.headers.get("content-type"), "text/event-stream; charset=utf-8");
        const replayed = await readEvents(replay.body!, 3);
        assert.deepEqual(
          replayed.map((e) => e.data),
          everything.slice(2, 5),
        );
        assert.deepEqual(
          replayed.map((e) => e.id),
          everything.slice(2, 5).map((e) => e.id),
        );
      });

      it("pushes the next merge to a live stream, as the event log has it", async () => {
        const live = await fetch(`${url}/v1/events/stream`);
        const waiting = readEvents(live.body!, 1);
        const cast = await castAdd(alice, "streamed");
        await post(stack, "/v1/submitMessage", encode(cast));
        [pushed] = (await waiting) as [{ id: number; data: Json }];
        assert.equal(pushed.data.type, "HUB_EVENT_TYPE_MERGE_MESSAGE");
        assert.equal(pushed.data.mergeMessageBody.message.hash, hex(cast.hash));
        assert.deepEqual(pushed.data, (await get(stack, `/v1/eventById?event_id=${pushed.id}`)).body);
      });

      it("resumes after the Last-Event-ID of a reconnect", async () => {
        const next = await castAdd(alice, "after the reconnect");
        await post(stack, "/v1/submitMessage", encode(next));
        const resumed = await fetch(`${url}/v1/events/stream`, {
          headers: { "last-event-id": String(pushed.id) },
        });
        const [after] = await readEvents(resumed.body!, 1);
        assert.equal(after!.data.mergeMessageBody.message.hash, hex(next.hash));
      });

      it("refuses a Last-Event-ID that is not an event id", async () => {
        const bad = await fetch(`${url}/v1/events/stream`, { headers: { "last-event-id": "yesterday" } });
        assert.equal(bad.status, 400);
      });
    });
  });

  describe(`hub RPC auth on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    before(async () => {
      stack = await startStack(engine, {
        rpcAuth: "alice:s3cret,alice:other:pass,bob:pw",
        adminToken: "op-token",
      });
      alice = await newAccount(stack);
    });
    after(async () => {
      await stack?.close();
    });

    const basic = (credentials: string) => ({
      authorization: `Basic ${Buffer.from(credentials).toString("base64")}`,
    });

    it("requires HTTP Basic credentials on submits only", async () => {
      const cast = await castAdd(alice, "authenticated");
      const missing = await post(stack, "/v1/submitMessage", encode(cast));
      assert.equal(missing.status, 401);
      assert.equal(missing.headers["www-authenticate"], 'Basic realm="castnet hub", charset="UTF-8"');
      assert.deepEqual(missing.body, {
        errCode: "unauthenticated",
        presentable: false,
        name: "HubError",
        code: 16,
        details: "authentication failed: Authorization header is empty",
        metadata: { errcode: ["unauthenticated"] },
      });
      for (const wrong of ["alice:nope", "carol:s3cret", "alice", "bob:s3cret"]) {
        const refused = await post(stack, "/v1/submitMessage", encode(cast), basic(wrong));
        assert.equal(refused.status, 401, wrong);
        assert.equal(refused.body.errCode, "unauthenticated");
      }
      const bearer = await post(stack, "/v1/submitMessage", encode(cast), { authorization: "Bearer abc" });
      assert.equal(
        bearer.body.details,
        "authentication failed: Authorization header is not HTTP Basic credentials",
      );
      const bulkRefused = await post(stack, "/v1/submitBulkMessages", bulk([cast]));
      assert.equal(bulkRefused.status, 401);

      assert.equal((await post(stack, "/v1/validateMessage", encode(cast))).status, 200);
      assert.equal((await post(stack, "/v1/submitMessage", encode(cast), basic("alice:s3cret"))).status, 200);
      const second = await castAdd(alice, "with the other password");
      assert.equal(
        (await post(stack, "/v1/submitMessage", encode(second), basic("alice:other:pass"))).status,
        200,
      );
      assert.equal((await get(stack, `/v1/castsByFid?fid=${alice.fid}`)).status, 200);
    });

    it("keeps the operator routes behind the admin token", async () => {
      const app = stack.hub.app;
      const anonymous = await app.inject({ method: "POST", url: "/v1/admin/housekeeping" });
      assert.equal(anonymous.statusCode, 401);
      assert.equal(JSON.parse(anonymous.body).errCode, "unauthenticated");
      const wrong = await app.inject({
        method: "POST",
        url: "/v1/admin/sync",
        headers: { authorization: "Bearer not-it" },
      });
      assert.equal(wrong.statusCode, 401);
      const done = await app.inject({
        method: "POST",
        url: "/v1/admin/housekeeping",
        headers: { authorization: "Bearer op-token" },
      });
      assert.equal(done.statusCode, 200);
      assert.deepEqual(JSON.parse(done.body), { prunedMessages: 0, prunedEvents: 0 });
      const synced = await app.inject({
        method: "POST",
        url: "/v1/admin/sync",
        headers: { authorization: "Bearer op-token" },
      });
      assert.deepEqual([synced.statusCode, JSON.parse(synced.body)], [200, {}]);
    });
  });
}

for (const engine of await testEngines()) {
  describe(`hub per-fid rate limit on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack(engine, { mergesPerUnit: 2 });
    });
    after(async () => {
      await stack?.close();
    });

    it("refuses a fid's merges past units × the per-unit quota with a 429, counting only merges that succeed", async () => {
      const alice = await newAccount(stack, 1);
      const bob = await newAccount(stack, 2);
      const first = await castAdd(alice, "one");
      assert.equal((await post(stack, "/v1/submitMessage", encode(first))).status, 200);
      const duplicate = await post(stack, "/v1/submitMessage", encode(first));
      assert.equal(duplicate.body.errCode, "bad_request.duplicate");
      assert.equal((await post(stack, "/v1/submitMessage", encode(await castAdd(alice, "two")))).status, 200);
      const third = await post(stack, "/v1/submitMessage", encode(await castAdd(alice, "three")));
      assert.equal(third.status, 429);
      assert.equal(third.body.errCode, "unavailable");
      assert.equal(third.body.details, `rate limit exceeded for FID ${alice.fid}`);
      for (const text of ["a", "b", "c", "d"]) {
        const response = await post(stack, "/v1/submitMessage", encode(await castAdd(bob, text)));
        assert.equal(response.status, 200, `bob's cast ${text}`);
      }
      assert.equal((await post(stack, "/v1/submitMessage", encode(await castAdd(bob, "e")))).status, 429);
    });
  });
}

describe("FidRateLimit", () => {
  it("opens a 24-hour window at a fid's first merge and starts afresh once it has passed", () => {
    const limit = new FidRateLimit(3);
    const day = 24 * 60 * 60 * 1000;
    for (let i = 0; i < 3; i++) {
      assert.equal(limit.check(7, 1, 1000 + i), undefined);
      limit.consume(7, 1000 + i);
    }
    assert.equal(limit.check(7, 1, 2000)?.message, "rate limit exceeded for FID 7");
    assert.equal(limit.check(7, 2, 2000), undefined, "more units, more merges");
    assert.equal(limit.check(8, 1, 2000), undefined, "each fid has its own window");
    assert.notEqual(limit.check(7, 1, 1000 + day - 1), undefined);
    assert.equal(limit.check(7, 1, 1000 + day), undefined);
  });
});
