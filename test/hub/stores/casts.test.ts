/**
 * The casts store (docs/reference/protocol-rules.md §4, §5): set key (fid, cast hash), a remove
 * beats an add whatever the timestamps, between removes the later one wins, a remove of an unseen
 * cast is kept so that the cast can never be added, and the store holds 2,000 messages per unit.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { testEngines } from "../../support/databases.js";
import {
  castAdd,
  core,
  get,
  hex,
  mergeEventOf,
  newAccount,
  options,
  submit,
  unwrap,
  type Account,
  type Json,
} from "../support.js";
import { storeSuite } from "./support.js";

function castRemove(account: Account, target: core.Message, timestamp: number) {
  return core
    .makeCastRemove({ targetHash: target.hash }, options(account, timestamp), account.signer)
    .then(unwrap);
}

for (const engine of await testEngines()) {
  describe(`casts store on ${engine.engine}`, { skip: engine.skip }, () => {
    const hub = storeSuite(engine, { account: false });

    const listed = async (account: Account) =>
      (await get(hub.stack, `/v1/castsByFid?fid=${account.fid}`)).body.messages.map((m: Json) => m.hash);

    describe("a merged cast", () => {
      let alice: Account;
      let cast: core.Message;
      let merged: { status: number; body: Json };
      before(async () => {
        alice = await newAccount(hub.stack);
        cast = await castAdd(alice, "hello world");
        merged = await submit(hub.stack, cast);
      });

      it("is answered with its JSON", () => {
        assert.equal(merged.status, 200);
        assert.equal(merged.body.data.castAddBody.text, "hello world");
        assert.equal(merged.body.hash, hex(cast.hash));
      });

      it("is refused when submitted again, as a duplicate", async () => {
        const duplicate = await submit(hub.stack, cast);
        assert.equal(duplicate.status, 400);
        assert.equal(duplicate.body.errCode, "bad_request.duplicate");
        assert.equal(duplicate.body.details, "message has already been merged");
      });
    });

    describe("a remove", () => {
      let alice: Account;
      let cast: core.Message;
      let remove: core.Message;
      before(async () => {
        alice = await newAccount(hub.stack);
        cast = await castAdd(alice, "soon removed", {}, hub.base + 10);
        assert.equal((await submit(hub.stack, cast)).status, 200);
        remove = await castRemove(alice, cast, hub.base + 5);
      });

      it("beats the add even with an earlier timestamp, and replaces it", async () => {
        const removed = await submit(hub.stack, remove);
        assert.equal(removed.status, 200);
        assert.equal(removed.body.data.type, "MESSAGE_TYPE_CAST_REMOVE");
        const event = await mergeEventOf(hub.stack, remove);
        assert.deepEqual(
          event.mergeMessageBody.deletedMessages.map((m: Json) => m.hash),
          [hex(cast.hash)],
        );
        const gone = await get(hub.stack, `/v1/castById?fid=${alice.fid}&hash=${hex(cast.hash)}`);
        assert.equal(gone.status, 404);
        assert.equal(gone.body.errCode, "not_found");
      });

      it("keeps the cast out for good: a later submit conflicts with the remove", async () => {
        const again = await submit(hub.stack, cast);
        assert.equal(again.status, 400);
        assert.equal(again.body.errCode, "bad_request.conflict");
        assert.equal(again.body.details, "message conflicts with a more recent remove");
      });

      it("is what the fid's casts list holds in the cast's place", async () => {
        assert.deepEqual(await listed(alice), [hex(remove.hash)]);
      });

      it("gives way to a later remove of the same cast, and refuses an earlier one", async () => {
        const later = await castRemove(alice, cast, hub.base + 20);
        assert.equal((await submit(hub.stack, later)).status, 200);
        const event = await mergeEventOf(hub.stack, later);
        assert.deepEqual(
          event.mergeMessageBody.deletedMessages.map((m: Json) => m.hash),
          [hex(remove.hash)],
        );
        const earlier = await submit(hub.stack, await castRemove(alice, cast, hub.base + 1));
        assert.equal(earlier.status, 400);
        assert.equal(earlier.body.errCode, "bad_request.conflict");
        assert.equal(earlier.body.details, "message conflicts with a more recent remove");
        assert.deepEqual(await listed(alice), [hex(later.hash)]);
      });
    });

    it("keeps a remove of a cast it never saw, so that the cast can never be added", async () => {
      const bob = await newAccount(hub.stack);
      const unseen = await castAdd(bob, "removed before it arrived", {}, hub.base + 30);
      const remove = await castRemove(bob, unseen, hub.base + 10);
      assert.equal((await submit(hub.stack, remove)).status, 200);
      const refused = await submit(hub.stack, unseen);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent remove");
      assert.deepEqual(await listed(bob), [hex(remove.hash)]);
    });

    it("never lets two adds conflict, whatever their timestamps", async () => {
      const carol = await newAccount(hub.stack);
      const later = await castAdd(carol, "same text", {}, hub.base + 50);
      const earlier = await castAdd(carol, "same text", {}, hub.base + 40);
      assert.equal((await submit(hub.stack, later)).status, 200);
      assert.equal((await submit(hub.stack, earlier)).status, 200);
      assert.deepEqual((await listed(carol)).sort(), [hex(later.hash), hex(earlier.hash)].sort());
    });

    it("holds 2,000 messages per storage unit", async () => {
      const dave = await newAccount(hub.stack);
      assert.deepEqual(await hub.storeLimit(dave.fid, "CASTS"), [2000, 0]);
    });
  });
}
