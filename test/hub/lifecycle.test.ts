/** What happens to stored messages over time: rent expiry, signer removal, event retention, following the chain over HTTP. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { httpChainClient } from "../../src/interfaces/chainHttp.js";
import { listen } from "../../src/http/index.js";
import type { Hub } from "../../src/hub/index.js";
import { testEngines } from "../support/databases.js";
import {
  allEvents,
  castAdd,
  core,
  encode,
  get,
  hex,
  newAccount,
  options,
  post,
  startStack,
  unwrap,
  type Account,
  type Json,
  type Stack,
} from "./support.js";

const DAY_MS = 24 * 60 * 60 * 1000;

for (const engine of await testEngines()) {
  describe(`hub message lifecycle on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack(engine);
    });
    after(async () => {
      await stack?.close();
    });

    describe("a removed signer", () => {
      let bob: Account;
      let signed: core.Message[];
      before(async () => {
        bob = await newAccount(stack);
        const cast = await castAdd(bob, "signed by a key about to go");
        const like = unwrap(
          await core.makeReactionAdd({ type: 1, targetUrl: "https://example.com" }, options(bob), bob.signer),
        );
        const bio = unwrap(
          await core.makeUserDataAdd({ type: 3, value: "soon gone" }, options(bob), bob.signer),
        );
        signed = [cast, like, bio];
        for (const m of signed) assert.equal((await post(stack, "/v1/submitMessage", encode(m))).status, 200);
        await stack.chain.chain.removeKey(bob.fid, bob.signerKey);
        await stack.hub.service.syncChain();
      });

      it("has every message it signed revoked, in every store", async () => {
        assert.deepEqual((await get(stack, `/v1/castsByFid?fid=${bob.fid}`)).body.messages, []);
        assert.deepEqual((await get(stack, `/v1/reactionsByFid?fid=${bob.fid}`)).body.messages, []);
        assert.deepEqual((await get(stack, `/v1/userDataByFid?fid=${bob.fid}`)).body.messages, []);
      });

      it("has each revocation reported by a REVOKE_MESSAGE event", async () => {
        const revoked = (await allEvents(stack)).filter((e) => e.type === "HUB_EVENT_TYPE_REVOKE_MESSAGE");
        assert.deepEqual(
          revoked
            .slice(-3)
            .map((e) => e.revokeMessageBody.message.hash)
            .sort(),
          signed.map((m) => hex(m.hash)).sort(),
        );
      });

      it("leaves no storage used by what it signed", async () => {
        const limits = (await get(stack, `/v1/storageLimitsByFid?fid=${bob.fid}`)).body.limits;
        assert.ok(limits.every((l: Json) => l.used === 0));
      });

      it("is no longer listed among the fid's signers", async () => {
        assert.deepEqual((await get(stack, `/v1/onChainSignersByFid?fid=${bob.fid}`)).body, { events: [] });
      });

      it("has its new messages refused", async () => {
        const late = await post(stack, "/v1/submitMessage", encode(await castAdd(bob, "too late")));
        assert.equal(late.status, 400);
        assert.equal(late.body.errCode, "bad_request.unknown_signer");
      });
    });

    describe("a year later", () => {
      let clock: number;
      let hub: Hub;
      let carol: Account;
      let cast: core.Message;
      let old: Json[];
      before(async () => {
        clock = Date.now();
        hub = await stack.startSeparateHub({ now: () => clock });
        carol = await newAccount(stack);
        await hub.service.syncChain();
        cast = await castAdd(carol, "rented for a year");
        assert.equal((await post(hub, "/v1/submitMessage", encode(cast))).status, 200);
        old = await allEvents(hub);
        assert.ok(old.length > 0);
        clock += 366 * DAY_MS;
      });

      it("checks storage before the store: a stored message is refused for want of it", async () => {
        // docs/reference/protocol-rules.md §3 step 9: the cast, still stored, is refused for want of
        // storage, not as a duplicate.
        const again = await post(hub, "/v1/submitMessage", encode(cast));
        assert.equal(again.body.errCode, "bad_request.no_storage");
      });

      it("prunes what expired rent no longer covers", async () => {
        assert.equal(await hub.service.pruneMessages(), 1);
        assert.deepEqual((await get(hub, `/v1/castsByFid?fid=${carol.fid}`)).body.messages, []);
        assert.equal((await get(hub, `/v1/storageLimitsByFid?fid=${carol.fid}`)).body.units, 0);
      });

      it("refuses new messages of a fid whose rent expired", async () => {
        const refused = await post(
          hub,
          "/v1/submitMessage",
          encode(await castAdd(carol, "no rent, no cast")),
        );
        assert.equal(refused.body.errCode, "bad_request.no_storage");
      });

      it("drops events older than three days", async () => {
        assert.ok((await hub.service.pruneEvents()) >= old.length);
        for (const event of old)
          assert.equal((await get(hub, `/v1/eventById?event_id=${event.id}`)).status, 404);
        const left = await allEvents(hub);
        assert.equal(left.length, 1);
        assert.equal(left[0].type, "HUB_EVENT_TYPE_PRUNE_MESSAGE");
        assert.equal(left[0].pruneMessageBody.message.hash, hex(cast.hash));
      });
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
