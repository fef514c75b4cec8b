/**
 * Link compact states (docs/reference/protocol-rules.md §4, docs/hub.md): one per fid and link type,
 * kept in the links store beside its set, never counted against its limit. Merging one clears the
 * link messages at or before it of the targets it leaves out; afterwards earlier link messages to
 * those targets are refused.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { testEngines } from "../../support/databases.js";
import { core, get, mergeEventOf, options, submit, unwrap, type Account, type Json } from "../support.js";
import { storeSuite } from "./support.js";

const [KEPT, DROPPED, REMOVED] = [700_001, 700_002, 700_003];

async function link(
  account: Account,
  add: boolean,
  targetFid: number,
  timestamp: number,
): Promise<core.Message> {
  const body = { type: "follow", targetFid };
  const at = options(account, timestamp);
  return add
    ? unwrap(await core.makeLinkAdd(body, at, account.signer))
    : unwrap(await core.makeLinkRemove(body, at, account.signer));
}

function compactState(account: Account, targetFids: number[], timestamp: number) {
  return core
    .makeLinkCompactState({ type: "follow", targetFids }, options(account, timestamp), account.signer)
    .then(unwrap);
}

for (const engine of await testEngines()) {
  describe(`link compact states on ${engine.engine}`, { skip: engine.skip }, () => {
    const hub = storeSuite(engine);
    let compact: core.Message;
    before(async () => {
      for (const message of [
        await link(hub.alice, true, KEPT, hub.base + 10),
        await link(hub.alice, true, DROPPED, hub.base + 11),
        await link(hub.alice, false, REMOVED, hub.base + 12),
      ])
        assert.equal((await submit(hub.stack, message)).status, 200);
      compact = await compactState(hub.alice, [KEPT], hub.base + 20);
      assert.equal((await submit(hub.stack, compact)).status, 200);
    });

    const status = async (targetFid: number) =>
      (await get(hub.stack, `/v1/linkById?fid=${hub.alice.fid}&target_fid=${targetFid}&link_type=follow`))
        .status;
    const linksUsed = async () =>
      (await get(hub.stack, `/v1/storageLimitsByFid?fid=${hub.alice.fid}`)).body.limits.find(
        (l: Json) => l.name === "LINKS",
      ).used;

    it("keeps the links to the targets it lists", async () => {
      assert.equal(await status(KEPT), 200);
    });

    it("clears the adds and removes at or before it of the targets it leaves out", async () => {
      assert.equal(await status(DROPPED), 404);
      assert.equal(await linksUsed(), 1);
    });

    it("lists no deleted messages in its merge event", async () => {
      assert.deepEqual((await mergeEventOf(hub.stack, compact)).mergeMessageBody.deletedMessages, []);
    });

    it("counts against no limit: the store's use is its links alone", async () => {
      assert.equal(await linksUsed(), 1);
      const links = (await get(hub.stack, `/v1/linksByFid?fid=${hub.alice.fid}`)).body.messages;
      assert.deepEqual(
        links.map((m: Json) => m.data.linkBody.targetFid),
        [KEPT],
      );
    });

    it("refuses an earlier add to a target it leaves out", async () => {
      const refused = await submit(hub.stack, await link(hub.alice, true, DROPPED, hub.base + 18));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, `Target fid ${DROPPED} not in the compact state target fids`);
    });

    it("refuses an earlier remove of a target it leaves out as one that would be pruned", async () => {
      const refused = await submit(hub.stack, await link(hub.alice, false, REMOVED, hub.base + 18));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.prunable");
      assert.equal(
        refused.body.details,
        "Remove message earlier than the compact state message will be immediately pruned",
      );
    });

    it("lets later links to any target merge as usual", async () => {
      assert.equal(
        (await submit(hub.stack, await link(hub.alice, true, DROPPED, hub.base + 30))).status,
        200,
      );
      assert.equal(await status(DROPPED), 200);
    });

    it("refuses a compact state not later than the one it holds", async () => {
      for (const timestamp of [hub.base + 15, hub.base + 20]) {
        const refused = await submit(hub.stack, await compactState(hub.alice, [KEPT, DROPPED], timestamp));
        assert.equal(refused.status, 400);
        assert.equal(refused.body.errCode, "bad_request.conflict");
        assert.equal(refused.body.details, "A newer Compact State message is already merged");
      }
    });

    it("refuses the same compact state again as a duplicate", async () => {
      const duplicate = await submit(hub.stack, compact);
      assert.equal(duplicate.body.errCode, "bad_request.duplicate");
      assert.equal(duplicate.body.details, "message has already been merged");
    });

    it("replaces the one it holds with a later one", async () => {
      const later = await compactState(hub.alice, [KEPT, DROPPED], hub.base + 40);
      assert.equal((await submit(hub.stack, later)).status, 200);
      const refused = await submit(hub.stack, await compactState(hub.alice, [KEPT], hub.base + 35));
      assert.equal(refused.body.details, "A newer Compact State message is already merged");
      assert.equal(await status(KEPT), 200);
      assert.equal(await status(DROPPED), 200);
    });
  });
}
