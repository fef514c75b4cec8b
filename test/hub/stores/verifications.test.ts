/**
 * The verifications store (docs/reference/protocol-rules.md §4, §5): set key (fid, address), the
 * default order (later timestamp wins; on equal timestamps a remove beats an add; then the larger
 * hash), one fid per address (a later add by another fid takes the address over), and 25 messages
 * per unit, the oldest pruned first.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { testEngines } from "../../support/databases.js";
import {
  allEvents,
  core,
  get,
  hex,
  newAccount,
  options,
  protocolNow,
  submit,
  unwrap,
  verificationAdd,
  type Account,
  type Json,
} from "../support.js";
import { storeSuite } from "./support.js";

function verificationRemove(account: Account, wallet: PrivateKeyAccount, timestamp: number) {
  const address = core.hexStringToBytes(wallet.address)._unsafeUnwrap();
  return core
    .makeVerificationRemove({ address, protocol: 0 }, options(account, timestamp), account.signer)
    .then(unwrap);
}

const newWallet = () => privateKeyToAccount(generatePrivateKey());

for (const engine of await testEngines()) {
  describe(`verifications store on ${engine.engine}`, { skip: engine.skip }, () => {
    const hub = storeSuite(engine);

    const held = (account: Account, wallet: PrivateKeyAccount) =>
      get(hub.stack, `/v1/verificationsByFid?fid=${account.fid}&address=${wallet.address}`);

    it("lets a later remove replace the add", async () => {
      const wallet = newWallet();
      const { message: add } = await verificationAdd(hub.alice, wallet, hub.base + 10);
      const remove = await verificationRemove(hub.alice, wallet, hub.base + 11);
      assert.equal((await submit(hub.stack, add)).status, 200);
      assert.equal((await submit(hub.stack, remove)).status, 200);
      assert.deepEqual(await hub.deletedBy(remove), [hex(add.hash)]);
      assert.equal((await held(hub.alice, wallet)).status, 404);
    });

    it("refuses a remove earlier than the add it competes with", async () => {
      const wallet = newWallet();
      const { message: add } = await verificationAdd(hub.alice, wallet, hub.base + 20);
      await submit(hub.stack, add);
      const refused = await submit(hub.stack, await verificationRemove(hub.alice, wallet, hub.base + 19));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent add");
      assert.equal((await held(hub.alice, wallet)).body.hash, hex(add.hash));
    });

    it("lets a remove beat an add of the same timestamp", async () => {
      const wallet = newWallet();
      await submit(hub.stack, await verificationRemove(hub.alice, wallet, hub.base + 30));
      const refused = await submit(
        hub.stack,
        (await verificationAdd(hub.alice, wallet, hub.base + 30)).message,
      );
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent remove");
    });

    it("breaks a tie of two adds of the same timestamp by the larger hash", async () => {
      const wallet = newWallet();
      const high = await hub.tieBrokenByHash(
        (await verificationAdd(hub.alice, wallet, hub.base + 40)).message,
        (await verificationAdd(hub.alice, wallet, hub.base + 40)).message,
      );
      assert.equal((await held(hub.alice, wallet)).body.hash, hex(high.hash));
    });

    it("keeps a remove of an address it never saw verified, against earlier adds", async () => {
      const wallet = newWallet();
      const remove = await verificationRemove(hub.alice, wallet, hub.base + 50);
      assert.equal((await submit(hub.stack, remove)).status, 200);
      assert.deepEqual(await hub.deletedBy(remove), []);
      const refused = await submit(
        hub.stack,
        (await verificationAdd(hub.alice, wallet, hub.base + 49)).message,
      );
      assert.equal(refused.body.errCode, "bad_request.conflict");
      assert.equal(refused.body.details, "message conflicts with a more recent remove");
    });

    describe("an address another fid has verified", () => {
      let bob: Account;
      let wallet: PrivateKeyAccount;
      let alices: core.Message;
      before(async () => {
        bob = await newAccount(hub.stack);
        wallet = newWallet();
        alices = (await verificationAdd(hub.alice, wallet, hub.base + 60)).message;
        assert.equal((await submit(hub.stack, alices)).status, 200);
      });

      it("refuses an earlier add by another fid", async () => {
        const refused = await submit(hub.stack, (await verificationAdd(bob, wallet, hub.base + 59)).message);
        assert.equal(refused.status, 400);
        assert.equal(refused.body.errCode, "bad_request.conflict");
        assert.equal(refused.body.details, "message conflicts with a more recent add");
        assert.equal((await held(hub.alice, wallet)).body.hash, hex(alices.hash));
      });

      it("passes to another fid's later add, which deletes the first fid's", async () => {
        const bobs = (await verificationAdd(bob, wallet, hub.base + 61)).message;
        assert.equal((await submit(hub.stack, bobs)).status, 200);
        assert.deepEqual(await hub.deletedBy(bobs), [hex(alices.hash)]);
        assert.equal((await held(hub.alice, wallet)).status, 404);
        assert.equal((await held(bob, wallet)).body.hash, hex(bobs.hash));
      });
    });

    describe("a full store", () => {
      let carol: Account;
      let start: number;
      const verifications: core.Message[] = [];
      before(async () => {
        carol = await newAccount(hub.stack);
        start = protocolNow() - 1000;
        for (let i = 0; i < 26; i++)
          verifications.push((await verificationAdd(carol, undefined, start + 10 + i)).message);
        for (const v of verifications) assert.equal((await submit(hub.stack, v)).status, 200);
      });

      it("prunes its oldest message to stay within 25 per unit", async () => {
        const limits = (await get(hub.stack, `/v1/storageLimitsByFid?fid=${carol.fid}`)).body;
        const store = limits.limits.find((l: Json) => l.name === "VERIFICATIONS");
        assert.equal(store.used, 25);
        assert.equal(store.earliestTimestamp, start + 11);
        assert.equal(store.earliestHash, Buffer.from(verifications[1]!.hash).toString("base64"));
        const list = (await get(hub.stack, `/v1/verificationsByFid?fid=${carol.fid}`)).body.messages;
        assert.deepEqual(
          list.map((m: Json) => m.hash),
          verifications.slice(1).map((v) => hex(v.hash)),
        );
      });

      it("reports the pruned message with a prune event", async () => {
        const pruned = (await allEvents(hub.stack)).filter((e) => e.type === "HUB_EVENT_TYPE_PRUNE_MESSAGE");
        assert.equal(pruned.at(-1).pruneMessageBody.message.hash, hex(verifications[0]!.hash));
      });

      it("refuses a message older than all it keeps, as one that would be pruned", async () => {
        const ancient = (await verificationAdd(carol, undefined, start)).message;
        const refused = await submit(hub.stack, ancient);
        assert.equal(refused.status, 400);
        assert.equal(refused.body.errCode, "bad_request.prunable");
        assert.equal(refused.body.details, "message would be pruned");
      });
    });
  });
}
