/**
 * The reactions store (docs/reference/protocol-rules.md §4, §5): set key (fid, type, target), the
 * default order (later timestamp wins; on equal timestamps a remove beats an add), a remove of a
 * reaction never seen kept against earlier adds, and 1,000 messages per unit.
 *
 * Two messages with the same key and timestamp carry the same data, so the last tiebreak (the larger
 * hash) never decides between two reactions: it is tested in the links and user data stores.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testEngines } from "../../support/databases.js";
import { core, get, hex, newAccount, options, submit, unwrap, type Account } from "../support.js";
import { storeSuite } from "./support.js";

const LIKE = 1;

async function reaction(
  account: Account,
  add: boolean,
  url: string,
  timestamp: number,
): Promise<core.Message> {
  const body = { type: LIKE, targetUrl: url };
  const at = options(account, timestamp);
  return add
    ? unwrap(await core.makeReactionAdd(body, at, account.signer))
    : unwrap(await core.makeReactionRemove(body, at, account.signer));
}

for (const engine of await testEngines()) {
  describe(`reactions store on ${engine.engine}`, { skip: engine.skip }, () => {
    const hub = storeSuite(engine);
    let target = 0;
    /** A URL no other test reacts to. */
    const freshUrl = () => `https://example.com/${++target}`;

    const held = async (url: string) =>
      get(
        hub.stack,
        `/v1/reactionById?fid=${hub.alice.fid}&reaction_type=${LIKE}&target_url=${encodeURIComponent(url)}`,
      );

    it("lets a later remove replace the add", async () => {
      const url = freshUrl();
      const add = await reaction(hub.alice, true, url, hub.base + 10);
      const remove = await reaction(hub.alice, false, url, hub.base + 11);
      assert.equal((await submit(hub.stack, add)).status, 200);
      assert.equal((await submit(hub.stack, remove)).status, 200);
      assert.deepEqual(await hub.deletedBy(remove), [hex(add.hash)]);
      assert.equal((await held(url)).status, 404);
    });

    it("refuses an add earlier than the remove it competes with", async () => {
      const url = freshUrl();
      await submit(hub.stack, await reaction(hub.alice, false, url, hub.base + 20));
      const refused = await submit(hub.stack, await reaction(hub.alice, true, url, hub.base + 19));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent remove");
    });

    it("refuses a remove earlier than the add it competes with", async () => {
      const url = freshUrl();
      const add = await reaction(hub.alice, true, url, hub.base + 30);
      await submit(hub.stack, add);
      const refused = await submit(hub.stack, await reaction(hub.alice, false, url, hub.base + 29));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent add");
      assert.equal((await held(url)).body.hash, hex(add.hash));
    });

    it("lets a remove beat an add of the same timestamp, whichever arrives first", async () => {
      const first = freshUrl();
      const add = await reaction(hub.alice, true, first, hub.base + 40);
      const remove = await reaction(hub.alice, false, first, hub.base + 40);
      await submit(hub.stack, add);
      assert.equal((await submit(hub.stack, remove)).status, 200);
      assert.deepEqual(await hub.deletedBy(remove), [hex(add.hash)]);

      const second = freshUrl();
      await submit(hub.stack, await reaction(hub.alice, false, second, hub.base + 40));
      const refused = await submit(hub.stack, await reaction(hub.alice, true, second, hub.base + 40));
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent remove");
    });

    it("takes the add back only with a timestamp later than the remove", async () => {
      const url = freshUrl();
      await submit(hub.stack, await reaction(hub.alice, true, url, hub.base + 50));
      const remove = await reaction(hub.alice, false, url, hub.base + 51);
      await submit(hub.stack, remove);
      const readd = await reaction(hub.alice, true, url, hub.base + 52);
      assert.equal((await submit(hub.stack, readd)).status, 200);
      assert.deepEqual(await hub.deletedBy(readd), [hex(remove.hash)]);
      assert.equal((await held(url)).body.hash, hex(readd.hash));
    });

    it("keeps a remove of a reaction it never saw", async () => {
      const url = freshUrl();
      const remove = await reaction(hub.alice, false, url, hub.base + 60);
      const merged = await submit(hub.stack, remove);
      assert.equal(merged.status, 200);
      assert.equal(merged.body.data.type, "MESSAGE_TYPE_REACTION_REMOVE");
      assert.deepEqual(await hub.deletedBy(remove), []);
      const refused = await submit(hub.stack, await reaction(hub.alice, true, url, hub.base + 59));
      assert.equal(refused.body.errCode, "bad_request.conflict");
    });

    it("holds 1,000 messages per storage unit", async () => {
      const bob = await newAccount(hub.stack);
      assert.deepEqual(await hub.storeLimit(bob.fid, "REACTIONS"), [1000, 0]);
    });
  });
}
