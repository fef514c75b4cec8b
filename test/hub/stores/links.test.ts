/**
 * The links store (docs/reference/protocol-rules.md §4, §5): set key (fid, type, target fid), the
 * default order (later timestamp wins; on equal timestamps a remove beats an add; then the larger
 * hash), a remove of a link never seen kept against earlier adds, and 1,000 messages per unit. The
 * compact state the store keeps beside its links has a file of its own.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { testEngines } from "../../support/databases.js";
import {
  core,
  get,
  hex,
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
    let stack: Stack;
    let alice: Account;
    const base = protocolNow() - 1000;
    let target = 800_000;
    /** A target fid no other test links to. */
    const freshTarget = () => ++target;
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
    });
    after(async () => {
      await stack?.close();
    });

    const held = (targetFid: number) =>
      get(stack, `/v1/linkById?fid=${alice.fid}&target_fid=${targetFid}&link_type=follow`);
    const deletedBy = async (message: core.Message) =>
      (await mergeEventOf(stack, message)).mergeMessageBody.deletedMessages.map((m: Json) => m.hash);

    it("lets a later remove replace the add", async () => {
      const fid = freshTarget();
      const add = await link(alice, true, fid, base + 10);
      const remove = await link(alice, false, fid, base + 11);
      assert.equal((await submit(stack, add)).status, 200);
      assert.equal((await submit(stack, remove)).status, 200);
      assert.deepEqual(await deletedBy(remove), [hex(add.hash)]);
      assert.equal((await held(fid)).status, 404);
    });

    it("refuses a remove earlier than the add it competes with", async () => {
      const fid = freshTarget();
      const add = await link(alice, true, fid, base + 20);
      await submit(stack, add);
      const refused = await submit(stack, await link(alice, false, fid, base + 19));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent add");
      assert.equal((await held(fid)).body.hash, hex(add.hash));
    });

    it("lets a remove beat an add of the same timestamp, whichever arrives first", async () => {
      const first = freshTarget();
      const add = await link(alice, true, first, base + 30);
      const remove = await link(alice, false, first, base + 30);
      await submit(stack, add);
      assert.equal((await submit(stack, remove)).status, 200);
      assert.deepEqual(await deletedBy(remove), [hex(add.hash)]);

      const second = freshTarget();
      await submit(stack, await link(alice, false, second, base + 30));
      const refused = await submit(stack, await link(alice, true, second, base + 30));
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent remove");
    });

    it("breaks a tie of two adds of the same timestamp by the larger hash", async () => {
      const fid = freshTarget();
      const [low, high] = [
        await link(alice, true, fid, base + 40, 1),
        await link(alice, true, fid, base + 40, 2),
      ].sort((a, b) => Buffer.compare(Buffer.from(a.hash), Buffer.from(b.hash)));
      assert.equal((await submit(stack, low!)).status, 200);
      assert.equal((await submit(stack, high!)).status, 200);
      assert.deepEqual(await deletedBy(high!), [hex(low!.hash)]);
      const refused = await submit(stack, low!);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent add");
      assert.equal((await held(fid)).body.hash, hex(high!.hash));
    });

    it("keeps a remove of a link it never saw, against earlier adds", async () => {
      const fid = freshTarget();
      const remove = await link(alice, false, fid, base + 50);
      assert.equal((await submit(stack, remove)).status, 200);
      assert.deepEqual(await deletedBy(remove), []);
      const refused = await submit(stack, await link(alice, true, fid, base + 49));
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent remove");
    });

    it("holds 1,000 messages per storage unit", async () => {
      const bob = await newAccount(stack);
      const limits = (await get(stack, `/v1/storageLimitsByFid?fid=${bob.fid}`)).body.limits;
      assert.deepEqual(
        limits.filter((l: Json) => l.name === "LINKS").map((l: Json) => [l.limit, l.used]),
        [[1000, 0]],
      );
    });
  });
}
