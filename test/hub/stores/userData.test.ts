/**
 * The user data store (docs/reference/protocol-rules.md §4, §5): set key (fid, type), adds only;
 * the later timestamp wins, then the larger hash; an empty value clears a field; 50 messages per
 * unit. USERNAME values must name a proof the fid holds: test/hub/names.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testEngines } from "../../support/databases.js";
import { core, get, hex, newAccount, options, submit, unwrap, type Account } from "../support.js";
import { storeSuite } from "./support.js";

const [PFP, DISPLAY, BIO, URL] = [1, 2, 3, 5];

function userData(account: Account, type: number, value: string, timestamp: number) {
  return core.makeUserDataAdd({ type, value }, options(account, timestamp), account.signer).then(unwrap);
}

for (const engine of await testEngines()) {
  describe(`user data store on ${engine.engine}`, { skip: engine.skip }, () => {
    const hub = storeSuite(engine);

    const held = async (type: number) =>
      (await get(hub.stack, `/v1/userDataByFid?fid=${hub.alice.fid}&user_data_type=${type}`)).body;

    it("lets a later value of a type replace the one it holds", async () => {
      const first = await userData(hub.alice, BIO, "first", hub.base + 10);
      const second = await userData(hub.alice, BIO, "second", hub.base + 11);
      assert.equal((await submit(hub.stack, first)).status, 200);
      assert.equal((await submit(hub.stack, second)).status, 200);
      assert.deepEqual(await hub.deletedBy(second), [hex(first.hash)]);
      assert.equal((await held(BIO)).data.userDataBody.value, "second");
    });

    it("refuses a value earlier than the one it holds", async () => {
      const refused = await submit(hub.stack, await userData(hub.alice, BIO, "stale", hub.base + 9));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent add");
      assert.equal((await held(BIO)).data.userDataBody.value, "second");
    });

    it("breaks a tie of two values of the same timestamp by the larger hash", async () => {
      const high = await hub.tieBrokenByHash(
        await userData(hub.alice, DISPLAY, "x", hub.base + 20),
        await userData(hub.alice, DISPLAY, "y", hub.base + 20),
      );
      assert.equal((await held(DISPLAY)).hash, hex(high.hash));
    });

    it("keeps each type apart", async () => {
      const pfp = await userData(hub.alice, PFP, "https://example.com/me.png", hub.base + 5);
      assert.equal((await submit(hub.stack, pfp)).status, 200);
      assert.deepEqual(await hub.deletedBy(pfp), []);
      assert.equal((await held(BIO)).data.userDataBody.value, "second");
    });

    it("clears a field with an empty value", async () => {
      const set = await userData(hub.alice, URL, "https://example.com", hub.base + 30);
      const cleared = await userData(hub.alice, URL, "", hub.base + 31);
      await submit(hub.stack, set);
      assert.equal((await submit(hub.stack, cleared)).status, 200);
      assert.deepEqual(await hub.deletedBy(cleared), [hex(set.hash)]);
      assert.equal((await held(URL)).data.userDataBody.value, "");
    });

    it("holds 50 messages per storage unit", async () => {
      const bob = await newAccount(hub.stack);
      assert.deepEqual(await hub.storeLimit(bob.fid, "USER_DATA"), [50, 0]);
    });
  });
}
