/** What happens to stored messages over time: storage limits, rent expiry, signer removal, event retention, following the chain over HTTP. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { httpChainClient } from "../../src/devchain/httpClient.js";
import { listen } from "../../src/http/index.js";
import { testEngines } from "../support/databases.js";
import {
  castAdd,
  core,
  encode,
  get,
  hex,
  newAccount,
  options,
  post,
  protocolNow,
  startStack,
  unwrap,
  verificationAdd,
  type Json,
  type Stack,
} from "./support.js";

const DAY_MS = 24 * 60 * 60 * 1000;

async function allEvents(stack: Stack | { hub: Stack["hub"] }): Promise<Json[]> {
  const events: Json[] = [];
  for (let from = 0; ;) {
    const page = (await get(stack as Stack, `/v1/events?from_event_id=${from}`)).body;
    events.push(...page.events);
    if (page.events.length < 100) return events;
    from = page.nextPageEventId;
  }
}

for (const engine of await testEngines()) {
  describe(`hub message lifecycle on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack(engine);
    });
    after(async () => {
      await stack?.close();
    });

    it("prunes the oldest message of a full store, and refuses one older than all it keeps", async () => {
      const alice = await newAccount(stack);
      const base = protocolNow() - 1000;
      const verifications = [];
      for (let i = 0; i < 26; i++)
        verifications.push((await verificationAdd(alice, undefined, base + 10 + i)).message);
      for (const v of verifications)
        assert.equal((await post(stack, "/v1/submitMessage", encode(v))).status, 200);

      const limits = (await get(stack, `/v1/storageLimitsByFid?fid=${alice.fid}`)).body;
      const store = limits.limits.find((l: Json) => l.name === "VERIFICATIONS");
      assert.equal(store.used, 25);
      assert.equal(store.earliestTimestamp, base + 11);
      assert.equal(store.earliestHash, Buffer.from(verifications[1]!.hash).toString("base64"));
      const list = (await get(stack, `/v1/verificationsByFid?fid=${alice.fid}`)).body.messages;
      assert.deepEqual(
        list.map((m: Json) => m.hash),
        verifications.slice(1).map((v) => hex(v.hash)),
      );
      const pruned = (await allEvents(stack)).filter((e) => e.type === "HUB_EVENT_TYPE_PRUNE_MESSAGE");
      assert.equal(pruned.at(-1).pruneMessageBody.message.hash, hex(verifications[0]!.hash));

      const ancient = (await verificationAdd(alice, undefined, base)).message;
      const refused = await post(stack, "/v1/submitMessage", encode(ancient));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.prunable");
      assert.equal(refused.body.details, "message would be pruned");
    });

    it("revokes every message of a removed signer and refuses its new ones", async () => {
      const bob = await newAccount(stack);
      const cast = await castAdd(bob, "signed by a key about to go");
      const like = unwrap(
        await core.makeReactionAdd({ type: 1, targetUrl: "https://example.com" }, options(bob), bob.signer),
      );
      const bio = unwrap(
        await core.makeUserDataAdd({ type: 3, value: "soon gone" }, options(bob), bob.signer),
      );
      for (const m of [cast, like, bio])
        assert.equal((await post(stack, "/v1/submitMessage", encode(m))).status, 200);

      await stack.chain.chain.removeKey(bob.fid, bob.signerKey);
      await stack.hub.service.syncChain();
      assert.deepEqual((await get(stack, `/v1/castsByFid?fid=${bob.fid}`)).body.messages, []);
      assert.deepEqual((await get(stack, `/v1/reactionsByFid?fid=${bob.fid}`)).body.messages, []);
      assert.deepEqual((await get(stack, `/v1/userDataByFid?fid=${bob.fid}`)).body.messages, []);
      const revoked = (await allEvents(stack)).filter((e) => e.type === "HUB_EVENT_TYPE_REVOKE_MESSAGE");
      assert.deepEqual(
        revoked
          .slice(-3)
          .map((e) => e.revokeMessageBody.message.hash)
          .sort(),
        [cast, like, bio].map((m) => hex(m.hash)).sort(),
      );
      const limits = (await get(stack, `/v1/storageLimitsByFid?fid=${bob.fid}`)).body.limits;
      assert.ok(limits.every((l: Json) => l.used === 0));
      assert.deepEqual((await get(stack, `/v1/onChainSignersByFid?fid=${bob.fid}`)).body, { events: [] });

      const late = await post(stack, "/v1/submitMessage", encode(await castAdd(bob, "too late")));
      assert.equal(late.status, 400);
      assert.equal(late.body.errCode, "bad_request.unknown_signer");
    });

    it("prunes what expired rent no longer covers, and drops events older than three days", async () => {
      let clock = Date.now();
      const hub = await stack.startSeparateHub({ now: () => clock });
      const carol = await newAccount(stack);
      await hub.service.syncChain();
      const cast = await castAdd(carol, "rented for a year");
      assert.equal((await post(hub, "/v1/submitMessage", encode(cast))).status, 200);
      const old = await allEvents({ hub });
      assert.ok(old.length > 0);

      clock += 366 * DAY_MS;
      // Storage is checked before the store's own checks (docs/reference/protocol-rules.md §3 step 9): the cast,
      // still stored, is refused for want of storage, not as a duplicate.
      const again = await post(hub, "/v1/submitMessage", encode(cast));
      assert.equal(again.body.errCode, "bad_request.no_storage");
      assert.equal(await hub.service.pruneMessages(), 1);
      assert.deepEqual((await get(hub, `/v1/castsByFid?fid=${carol.fid}`)).body.messages, []);
      assert.equal((await get(hub, `/v1/storageLimitsByFid?fid=${carol.fid}`)).body.units, 0);
      const refused = await post(hub, "/v1/submitMessage", encode(await castAdd(carol, "no rent, no cast")));
      assert.equal(refused.body.errCode, "bad_request.no_storage");

      assert.ok((await hub.service.pruneEvents()) >= old.length);
      for (const event of old)
        assert.equal((await get(hub, `/v1/eventById?event_id=${event.id}`)).status, 404);
      const left = await allEvents({ hub });
      assert.equal(left.length, 1);
      assert.equal(left[0].type, "HUB_EVENT_TYPE_PRUNE_MESSAGE");
      assert.equal(left[0].pruneMessageBody.message.hash, hex(cast.hash));
    });

    it("follows a devchain over its HTTP interface when it runs alone", async () => {
      const url = await listen(stack.chain.app, "devchain", "127.0.0.1", 0);
      const hub = await stack.startSeparateHub({ chain: httpChainClient(url) });
      const dave = await newAccount(stack);
      let fids: number[] = [];
      for (let i = 0; i < 60 && !fids.includes(dave.fid); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        fids = (await get(hub, "/v1/fids")).body.fids;
      }
      assert.ok(fids.includes(dave.fid));
      await hub.service.syncChain();
      assert.equal(
        (await post(hub, "/v1/submitMessage", encode(await castAdd(dave, "over http")))).status,
        200,
      );
    });
  });
}
