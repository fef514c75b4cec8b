/**
 * Link compact states (docs/reference/protocol-rules.md §4, docs/hub.md): one per fid and link type,
 * kept in the links store beside its set, never counted against its limit. Merging one clears the
 * link messages at or before it of the targets it leaves out; afterwards earlier link messages to
 * those targets are refused.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { testEngines } from "../../support/databases.js";
import {
  core,
  get,
  mergeEventOf,
  newAccount,
  options,
  protocolNow,
  startStack,
  submit,
  unwrap,
  type Account,
  type Json,
  type Stack,
} from "../support.js";

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
    let stack: Stack;
    let alice: Account;
    let compact: core.Message;
    const base = protocolNow() - 1000;
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
      for (const message of [
        await link(alice, true, KEPT, base + 10),
        await link(alice, true, DROPPED, base + 11),
        await link(alice, false, REMOVED, base + 12),
      ])
        assert.equal((await submit(stack, message)).status, 200);
      compact = await compactState(alice, [KEPT], base + 20);
      assert.equal((await submit(stack, compact)).status, 200);
    });
    after(async () => {
      await stack?.close();
    });

    const status = async (targetFid: number) =>
      (await get(stack, `/v1/linkById?fid=${alice.fid}&target_fid=${targetFid}&link_type=follow`)).status;
    const linksUsed = async () =>
      (await get(stack, `/v1/storageLimitsByFid?fid=${alice.fid}`)).body.limits.find(
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
      assert.deepEqual((await mergeEventOf(stack, compact)).mergeMessageBody.deletedMessages, []);
    });

    it("counts against no limit: the store's use is its links alone", async () => {
      assert.equal(await linksUsed(), 1);
      const links = (await get(stack, `/v1/linksByFid?fid=${alice.fid}`)).body.messages;
      assert.deepEqual(
        links.map((m: Json) => m.data.linkBody.targetFid),
        [KEPT],
      );
    });

    it("refuses an earlier add to a target it leaves out", async () => {
      const refused = await submit(stack, await link(alice, true, DROPPED, base + 18));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, `Target fid ${DROPPED} not in the compact state target fids`);
    });

    it("refuses an earlier remove of a target it leaves out as one that would be pruned", async () => {
      const refused = await submit(stack, await link(alice, false, REMOVED, base + 18));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.prunable");
      assert.equal(
        refused.body.details,
        "Remove message earlier than the compact state message will be immediately pruned",
      );
    });

    it("lets later links to any target merge as usual", async () => {
      assert.equal((await submit(stack, await link(alice, true, DROPPED, base + 30))).status, 200);
      assert.equal(await status(DROPPED), 200);
    });

    it("refuses a compact state not later than the one it holds", async () => {
      for (const timestamp of [base + 15, base + 20]) {
        const refused = await submit(stack, await compactState(alice, [KEPT, DROPPED], timestamp));
        assert.equal(refused.status, 400);
        assert.equal(refused.body.errCode, "bad_request.conflict");
        assert.equal(refused.body.details, "A newer Compact State message is already merged");
      }
    });

    it("refuses the same compact state again as a duplicate", async () => {
      const duplicate = await submit(stack, compact);
      assert.equal(duplicate.body.errCode, "bad_request.duplicate");
      assert.equal(duplicate.body.details, "message has already been merged");
    });

    it("replaces the one it holds with a later one", async () => {
      const later = await compactState(alice, [KEPT, DROPPED], base + 40);
      assert.equal((await submit(stack, later)).status, 200);
      const refused = await submit(stack, await compactState(alice, [KEPT], base + 35));
      assert.equal(refused.body.details, "A newer Compact State message is already merged");
      assert.equal(await status(KEPT), 200);
      assert.equal(await status(DROPPED), 200);
    });
  });
}
