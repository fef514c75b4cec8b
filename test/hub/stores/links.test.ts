/**
 * The links store (docs/reference/protocol-rules.md §4, §5): set key (fid, type, target fid), the
 * default order (later timestamp wins; on equal timestamps a remove beats an add; then the larger
 * hash), a remove of a link never seen kept against earlier adds, and 1,000 messages per unit. The
 * compact state the store keeps beside its links has a file of its own.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testEngines } from "../../support/databases.js";
import { core, get, hex, newAccount, options, submit, unwrap, type Account } from "../support.js";
import { storeSuite } from "./support.js";

async function link(
  account: Account,
  add: boolean,
  targetFid: number,
  timestamp: number,
  displayTimestamp?: number,
): Promise<core.Message> {
  const body = { type: "follow", targetFid, ...(displayTimestamp === undefined ? {} : { displayTimestamp }) };
  const at = options(account, timestamp);
  return add
    ? unwrap(await core.makeLinkAdd(body, at, account.signer))
    : unwrap(await core.makeLinkRemove(body, at, account.signer));
}

for (const engine of await testEngines()) {
  describe(`links store on ${engine.engine}`, { skip: engine.skip }, () => {
    const hub = storeSuite(engine);
    let target = 800_000;
    /** A target fid no other test links to. */
    const freshTarget = () => ++target;

    const held = (targetFid: number) =>
      get(hub.stack, `/v1/linkById?fid=${hub.alice.fid}&target_fid=${targetFid}&link_type=follow`);

    it("lets a later remove replace the add", async () => {
      const fid = freshTarget();
      const add = await link(hub.alice, true, fid, hub.base + 10);
      const remove = await link(hub.alice, false, fid, hub.base + 11);
      assert.equal((await submit(hub.stack, add)).status, 200);
      assert.equal((await submit(hub.stack, remove)).status, 200);
      assert.deepEqual(await hub.deletedBy(remove), [hex(add.hash)]);
      assert.equal((await held(fid)).status, 404);
    });

    it("refuses a remove earlier than the add it competes with", async () => {
      const fid = freshTarget();
      const add = await link(hub.alice, true, fid, hub.base + 20);
      await submit(hub.stack, add);
      const refused = await submit(hub.stack, await link(hub.alice, false, fid, hub.base + 19));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent add");
      assert.equal((await held(fid)).body.hash, hex(add.hash));
    });

    it("lets a remove beat an add of the same timestamp, whichever arrives first", async () => {
      const first = freshTarget();
      const add = await link(hub.alice, true, first, hub.base + 30);
      const remove = await link(hub.alice, false, first, hub.base + 30);
      await submit(hub.stack, add);
      assert.equal((await submit(hub.stack, remove)).status, 200);
      assert.deepEqual(await hub.deletedBy(remove), [hex(add.hash)]);

      const second = freshTarget();
      await submit(hub.stack, await link(hub.alice, false, second, hub.base + 30));
      const refused = await submit(hub.stack, await link(hub.alice, true, second, hub.base + 30));
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent remove");
    });

    it("breaks a tie of two adds of the same timestamp by the larger hash", async () => {
      const fid = freshTarget();
      const high = await hub.tieBrokenByHash(
        await link(hub.alice, true, fid, hub.base + 40, 1),
        await link(hub.alice, true, fid, hub.base + 40, 2),
      );
      assert.equal((await held(fid)).body.hash, hex(high.hash));
    });

    it("keeps a remove of a link it never saw, against earlier adds", async () => {
      const fid = freshTarget();
      const remove = await link(hub.alice, false, fid, hub.base + 50);
      assert.equal((await submit(hub.stack, remove)).status, 200);
      assert.deepEqual(await hub.deletedBy(remove), []);
      const refused = await submit(hub.stack, await link(hub.alice, true, fid, hub.base + 49));
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent remove");
    });

    it("holds 1,000 messages per storage unit", async () => {
      const bob = await newAccount(hub.stack);
      assert.deepEqual(await hub.storeLimit(bob.fid, "LINKS"), [1000, 0]);
    });
  });
}
