/**
 * Subscribe through the reference client library: a live stream while messages are submitted, a
 * resume from an event id, the eventTypes filter, the per-client cap, and streams that end cleanly
 * when the client cancels or the hub closes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { HubEventType, type ClientReadableStream, type HubEvent } from "@farcaster/hub-nodejs";
import { testEngines } from "../../support/databases.js";
import {
  castAdd,
  get,
  hex,
  newAccount,
  startStack,
  type Account,
  type Json,
  type Stack,
} from "../support.js";
import { connect, ok, type GrpcClient } from "./support.js";

/** The first `count` events of a stream, which is then cancelled. */
async function take(stream: ClientReadableStream<HubEvent>, count: number): Promise<HubEvent[]> {
  const events: HubEvent[] = [];
  for await (const event of stream) {
    events.push(event as HubEvent);
    if (events.length === count) break;
  }
  stream.cancel();
  return events;
}

/** The status a stream ends with. */
function ending(stream: ClientReadableStream<HubEvent>): Promise<{ code: number; details: string }> {
  return new Promise((resolve) => {
    stream.on("data", () => undefined);
    stream.on("error", (error: { code: number; details: string }) => resolve(error));
    stream.on("status", (status: { code: number; details: string }) => resolve(status));
  });
}

for (const engine of await testEngines()) {
  describe(`hub gRPC Subscribe on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    let rpc: GrpcClient;
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
      rpc = await connect(stack.hub);
    });
    after(async () => {
      rpc?.close();
      await stack?.close();
    });

    it("streams events merged while it is open", async () => {
      const stream = ok(await rpc.client.subscribe({ eventTypes: [] }));
      const received = take(stream, 2);
      // The stream is registered once the server has the call; give it a moment before merging.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const casts = [await castAdd(alice, "live one"), await castAdd(alice, "live two")];
      for (const cast of casts) ok(await rpc.client.submitMessage(cast));
      const events = await received;
      assert.deepEqual(
        events.map((e) => [e.type, hex(e.mergeMessageBody!.message!.hash)]),
        casts.map((c) => [HubEventType.MERGE_MESSAGE, hex(c.hash)]),
      );
      const overHttp = (await get(stack, `/v1/eventById?event_id=${events[0]!.id}`)).body;
      assert.equal(overHttp.mergeMessageBody.message.hash, hex(casts[0]!.hash));
    });

    it("resumes from an event id, with events from before the call, and filters by type", async () => {
      const all = (await get(stack, "/v1/events?from_event_id=0")).body.events as Json[];
      const from = all[1].id;
      const replay = await take(
        ok(await rpc.client.subscribe({ eventTypes: [], fromId: from })),
        all.length - 1,
      );
      assert.deepEqual(
        replay.map((e) => e.id),
        all.slice(1).map((e) => e.id),
      );
      const onChain = all.filter((e) => e.type === "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT");
      const filtered = await take(
        ok(
          await rpc.client.subscribe({
            eventTypes: [HubEventType.MERGE_ON_CHAIN_EVENT],
            fromId: 0,
            shardIndex: 1,
          }),
        ),
        onChain.length,
      );
      assert.deepEqual(
        filtered.map((e) => e.id),
        onChain.map((e) => e.id),
      );
    });
  });

  // A hub of its own: a client's cancels reach the server only with later traffic, so streams the
  // other tests cancelled may still count against this client for a moment.
  describe(`hub gRPC Subscribe limits on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    let rpc: GrpcClient;
    before(async () => {
      stack = await startStack(engine, { streams: { maxStreamsPerClient: 3 } });
      alice = await newAccount(stack);
      rpc = await connect(stack.hub);
    });
    after(async () => {
      rpc?.close();
      await stack?.close();
    });

    it("caps streams per client and frees a place when a client cancels", async () => {
      const open = [];
      for (let i = 0; i < 3; i++) {
        const stream = ok(await rpc.client.subscribe({ eventTypes: [] }));
        stream.on("data", () => undefined);
        open.push(stream);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      const refused = await ending(ok(await rpc.client.subscribe({ eventTypes: [] })));
      assert.equal(refused.code, 14);
      assert.match(refused.details, /this client has 3 event streams open/);
      const cancelled = open.pop()!;
      cancelled.on("error", () => undefined);
      cancelled.cancel();
      // The client library sends a cancel with its next traffic on the connection.
      ok(await rpc.client.getInfo({}));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = ok(await rpc.client.subscribe({ eventTypes: [] }));
      const received = take(next, 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      ok(await rpc.client.submitMessage(await castAdd(alice, "after a cancel")));
      assert.equal((await received).length, 1);
      // The others stay open: closing the hub ends them (after()).
      for (const stream of open) stream.on("error", () => undefined);
    });
  });
}
