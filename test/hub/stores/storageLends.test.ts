/**
 * The loans store (docs/reference/storage-lending.md): LEND_STORAGE built by the reference client
 * library, submitted over HTTP and gRPC; the successor node's refusals with its sentences; one loan
 * per lender and borrower, the later replacing the earlier; a loan of no units deleted as it merges;
 * the units moving between both fids' limits, with the borrower pruned at once when they go back;
 * loans that outlive their key and their lender's rent.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as nodeClient from "@farcaster/hub-nodejs";
import type { Hub } from "../../../src/hub/index.js";
import { testEngines } from "../../support/databases.js";
import { connect, ok, refused, type GrpcClient } from "../grpc/support.js";
import {
  allEvents,
  castAdd,
  core,
  DEVNET,
  encode,
  get,
  hex,
  newAccount,
  options,
  post,
  protocolNow,
  signedByHand,
  submit,
  unwrap,
  type Account,
  type Json,
  type Stack,
} from "../support.js";
import { storeSuite } from "./support.js";

const LEGACY = 0;
const UNITS_2024 = 1;
const UNITS_2025 = 2;
const MAINNET = 1;
const DAY_MS = 24 * 60 * 60 * 1000;

function loan(from: Account, toFid: number, numUnits: number, unitType = UNITS_2024, timestamp?: number) {
  return core
    .makeLendStorage({ toFid, numUnits, unitType }, options(from, timestamp), from.signer)
    .then(unwrap);
}

async function limitsOf(stack: Stack | Hub, fid: number): Promise<Json> {
  return (await get(stack, `/v1/storageLimitsByFid?fid=${fid}`)).body;
}

/** The 2024 cohort's line of unitDetails: castnet's devchain rents 2024 units. */
async function cohortOf(stack: Stack | Hub, fid: number): Promise<Json> {
  return (await limitsOf(stack, fid)).unitDetails.find((d: Json) => d.unitType === "UNIT_TYPE_2024");
}

function details(unitSize: number, purchased: number, lent: number, borrowed: number) {
  return {
    unitType: "UNIT_TYPE_2024",
    unitSize,
    purchasedUnitSize: purchased,
    lentUnitSize: lent,
    borrowedUnitSize: borrowed,
  };
}

async function assertRefused(stack: Stack | Hub, message: core.Message, errCode: string, details: string) {
  const answer = await post(stack, "/v1/submitMessage", encode(message));
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.errCode, errCode);
  assert.equal(answer.body.details, details);
}

const lendBody = (toFid: number, numUnits: number, unitType: number) => ({ toFid, numUnits, unitType });

for (const engine of await testEngines()) {
  describe(`storage loans on ${engine.engine}`, { skip: engine.skip }, () => {
    const hub = storeSuite(engine, { account: false });
    let rpc: GrpcClient;
    let lender: Account;
    let borrower: Account;
    let carol: Account;
    let first: core.Message;
    const t0 = protocolNow() - 60;
    before(async () => {
      lender = await newAccount(hub.stack, 10);
      borrower = await newAccount(hub.stack, 1);
      carol = await newAccount(hub.stack, 1);
      rpc = await connect(hub.stack.hub);
    });
    after(() => rpc?.close());

    it("moves units of a cohort from the lender to the borrower", async () => {
      first = await loan(lender, borrower.fid, 4, UNITS_2024, t0);
      const stored = await submit(hub.stack, first);
      assert.equal(stored.status, 200);
      assert.equal(stored.body.data.type, "MESSAGE_TYPE_LEND_STORAGE");
      assert.deepEqual(stored.body.data.lendStorageBody, {
        toFid: borrower.fid,
        numUnits: 4,
        unitType: "UNIT_TYPE_2024",
      });
      assert.deepEqual(await hub.deletedBy(first), []);
      assert.deepEqual(await cohortOf(hub.stack, lender.fid), details(6, 10, 4, 0));
      assert.deepEqual(await cohortOf(hub.stack, borrower.fid), details(5, 1, 0, 4));
      assert.equal((await limitsOf(hub.stack, lender.fid)).units, 6);
      assert.equal((await limitsOf(hub.stack, borrower.fid)).units, 5);
      assert.deepEqual(await hub.storeLimit(lender.fid, "CASTS"), [12000, 0]);
      assert.deepEqual(await hub.storeLimit(borrower.fid, "CASTS"), [10000, 0]);
    });

    it("reports the loans store as the successor does: a message per rented unit, loans given and received used", async () => {
      const limits = (await limitsOf(hub.stack, lender.fid)).limits;
      assert.deepEqual(
        limits.map((l: Json) => l.storeType),
        [1, 2, 3, 4, 5, 6, 7].map((n) =>
          n === 7
            ? "STORE_TYPE_STORAGE_LENDS"
            : `STORE_TYPE_${["CASTS", "LINKS", "REACTIONS", "USER_DATA", "VERIFICATIONS", "USERNAME_PROOFS"][n - 1]}`,
        ),
      );
      assert.deepEqual(await hub.storeLimit(lender.fid, "STORAGE_LENDS"), [10, 1]);
      assert.deepEqual(await hub.storeLimit(borrower.fid, "STORAGE_LENDS"), [1, 1]);
      const store = limits.find((l: Json) => l.name === "STORAGE_LENDS");
      assert.equal(store.earliestTimestamp, t0);
      assert.equal(store.earliestHash, Buffer.from(first.hash).toString("base64"));
    });

    it("answers the storage limits and the lender's loans over gRPC", async () => {
      const limits = ok(await rpc.client.getCurrentStorageLimitsByFid({ fid: borrower.fid }));
      assert.equal(limits.units, 5);
      assert.deepEqual(limits.unitDetails, [
        { unitType: LEGACY, unitSize: 0, purchasedUnitSize: 0, lentUnitSize: 0, borrowedUnitSize: 0 },
        { unitType: UNITS_2024, unitSize: 5, purchasedUnitSize: 1, lentUnitSize: 0, borrowedUnitSize: 4 },
      ]);
      const lends = limits.limits.find((l) => l.storeType === 7);
      assert.deepEqual([lends?.name, lends?.limit, lends?.used], ["STORAGE_LENDS", 1, 1]);
      const given = ok(await rpc.client.getAllLendStorageMessagesByFid({ fid: lender.fid }));
      assert.deepEqual(
        given.messages.map((m) => hex(m.hash)),
        [hex(first.hash)],
      );
      assert.deepEqual(
        ok(await rpc.client.getAllLendStorageMessagesByFid({ fid: borrower.fid })).messages,
        [],
      );
      const later = ok(
        await rpc.client.getAllLendStorageMessagesByFid({ fid: lender.fid, startTimestamp: t0 + 1 }),
      );
      assert.deepEqual(later.messages, []);
    });

    it("keeps one unit of the cohort for the lender, over HTTP and gRPC alike", async () => {
      // 10 rented, 4 lent: 6 spare, and a loan of 6 would leave none.
      const tooMuch = await loan(lender, carol.fid, 6, UNITS_2024, t0 + 1);
      await assertRefused(hub.stack, tooMuch, "bad_request.validation_failure", "insufficient storage");
      const validated = await post(hub.stack, "/v1/validateMessage", encode(tooMuch));
      assert.equal(validated.body.details, "insufficient storage");
      const overGrpc = refused(await rpc.client.submitMessage(tooMuch));
      assert.deepEqual(
        [overGrpc.errCode, overGrpc.message],
        ["bad_request.validation_failure", "insufficient storage"],
      );
      // Built by the reference node client's own re-export, as a program written for it does.
      const enough = unwrap(
        await nodeClient.makeLendStorage(
          lendBody(carol.fid, 5, UNITS_2024),
          options(lender, t0 + 1),
          lender.signer,
        ),
      );
      assert.equal(hex(ok(await rpc.client.submitMessage(enough)).hash), hex(enough.hash));
      assert.deepEqual(await cohortOf(hub.stack, lender.fid), details(1, 10, 9, 0));
      assert.deepEqual(await cohortOf(hub.stack, carol.fid), details(6, 1, 0, 5));
    });

    it("counts the loan a new one would replace as still lent", async () => {
      // 1 spare: replacing the borrower's 4 units by 1 needs 2.
      await assertRefused(
        hub.stack,
        await loan(lender, borrower.fid, 1, UNITS_2024, t0 + 2),
        "bad_request.validation_failure",
        "insufficient storage",
      );
    });

    it("takes the units back with a loan of none, deleted as it merges", async () => {
      const given = ok(await rpc.client.getAllLendStorageMessagesByFid({ fid: lender.fid })).messages;
      const carols = given.find((m) => m.data?.lendStorageBody?.toFid === carol.fid)!;
      const back = await loan(lender, carol.fid, 0, UNITS_2024, t0 + 3);
      const stored = await submit(hub.stack, back);
      assert.equal(stored.status, 200);
      assert.equal(stored.body.data.lendStorageBody.numUnits, 0);
      const events = await allEvents(hub.stack);
      const merged = events.findIndex(
        (e) =>
          e.type === "HUB_EVENT_TYPE_MERGE_MESSAGE" && e.mergeMessageBody.message.hash === hex(back.hash),
      );
      assert.deepEqual(
        events[merged].mergeMessageBody.deletedMessages.map((m: Json) => m.hash),
        [hex(carols.hash)],
      );
      assert.equal(events[merged + 1].type, "HUB_EVENT_TYPE_PRUNE_MESSAGE");
      assert.equal(events[merged + 1].pruneMessageBody.message.hash, hex(back.hash));
      assert.deepEqual(
        ok(await rpc.client.getAllLendStorageMessagesByFid({ fid: lender.fid })).messages.map((m) =>
          hex(m.hash),
        ),
        [hex(first.hash)],
      );
      assert.deepEqual(await cohortOf(hub.stack, carol.fid), details(1, 1, 0, 0));
      assert.deepEqual(await cohortOf(hub.stack, lender.fid), details(6, 10, 4, 0));
      assert.deepEqual(await hub.storeLimit(carol.fid, "STORAGE_LENDS"), [1, 0]);
    });

    it("lets a later loan to the same fid replace the standing one, and refuses an older one and the same one again", async () => {
      const later = await loan(lender, borrower.fid, 3, UNITS_2024, t0 + 5);
      assert.equal((await submit(hub.stack, later)).status, 200);
      assert.deepEqual(await hub.deletedBy(later), [hex(first.hash)]);
      assert.deepEqual(await cohortOf(hub.stack, borrower.fid), details(4, 1, 0, 3));
      await assertRefused(
        hub.stack,
        await loan(lender, borrower.fid, 2, UNITS_2024, t0 + 4),
        "bad_request.conflict",
        "message conflicts with a more recent add",
      );
      await assertRefused(hub.stack, later, "bad_request.duplicate", "message has already been merged");
    });

    it("breaks a tie of two loans of one timestamp by the larger hash", async () => {
      const high = await hub.tieBrokenByHash(
        await loan(lender, carol.fid, 1, UNITS_2024, t0 + 6),
        await loan(lender, carol.fid, 2, UNITS_2024, t0 + 6),
      );
      assert.equal(
        (await cohortOf(hub.stack, carol.fid)).borrowedUnitSize,
        high.data!.lendStorageBody!.numUnits,
      );
    });

    it("refuses units of a cohort the lender rents none of", async () => {
      await assertRefused(
        hub.stack,
        await loan(lender, carol.fid, 1, UNITS_2025),
        "bad_request.validation_failure",
        "insufficient storage",
      );
    });

    it("refuses, with the successor's sentences, a loan dated over 10 minutes back, an unknown unit type, over 5000 units", async () => {
      const now = protocolNow();
      const byHand = (body: ReturnType<typeof lendBody>, timestamp = now) =>
        signedByHand(lender, {
          type: 15,
          fid: lender.fid,
          timestamp,
          network: DEVNET,
          lendStorageBody: body,
        });
      const cases: [core.Message, string][] = [
        [
          await byHand(lendBody(carol.fid, 1, UNITS_2024), now - 700),
          "timestamp more than 10 mins in the past",
        ],
        [await byHand(lendBody(carol.fid, 1, 3)), "invalid storage unit type"],
        [await byHand(lendBody(carol.fid, 5001, UNITS_2024)), "num storage units too large"],
      ];
      for (const [message, sentence] of cases) {
        await assertRefused(hub.stack, message, "bad_request.validation_failure", sentence);
        const overGrpc = refused(await rpc.client.submitMessage(message));
        assert.deepEqual([overGrpc.errCode, overGrpc.message], ["bad_request.validation_failure", sentence]);
      }
    });

    it("lends to the lender itself and to an unregistered fid, as the successor does", async () => {
      const erin = await newAccount(hub.stack, 3);
      assert.equal((await submit(hub.stack, await loan(erin, erin.fid, 1))).status, 200);
      assert.deepEqual(await cohortOf(hub.stack, erin.fid), details(3, 3, 1, 1));
      assert.deepEqual(await hub.storeLimit(erin.fid, "STORAGE_LENDS"), [3, 2]);
      const nobody = 2 ** 40;
      assert.equal((await submit(hub.stack, await loan(erin, nobody, 1))).status, 200);
      assert.deepEqual(await cohortOf(hub.stack, erin.fid), details(2, 3, 2, 1));
      assert.deepEqual(await cohortOf(hub.stack, nobody), details(1, 0, 0, 1));
    });

    describe("a fid that lives on borrowed units", () => {
      let gina: Account;
      let dan: Account;
      let cast: core.Message;
      before(async () => {
        gina = await newAccount(hub.stack, 3);
        dan = await newAccount(hub.stack, 0);
      });

      it("may store nothing before the loan, and casts once it has it", async () => {
        await assertRefused(hub.stack, await castAdd(dan, "not yet"), "bad_request.no_storage", "no storage");
        assert.equal(
          (await submit(hub.stack, await loan(gina, dan.fid, 1, UNITS_2024, protocolNow() - 1))).status,
          200,
        );
        cast = await castAdd(dan, "on borrowed storage");
        assert.equal((await submit(hub.stack, cast)).status, 200);
        assert.deepEqual(await hub.storeLimit(dan.fid, "CASTS"), [2000, 1]);
      });

      it("loses what the units held, in the merge that takes them back", async () => {
        // Dated after the loan, which it must outrank.
        const back = await loan(gina, dan.fid, 0, UNITS_2024, protocolNow() + 1);
        assert.equal((await submit(hub.stack, back)).status, 200);
        const events = await allEvents(hub.stack);
        const merged = events.findIndex((e) => e.mergeMessageBody?.message.hash === hex(back.hash));
        assert.deepEqual(
          events.slice(merged + 1).map((e) => [e.type, e.pruneMessageBody?.message.hash]),
          [
            ["HUB_EVENT_TYPE_PRUNE_MESSAGE", hex(back.hash)],
            ["HUB_EVENT_TYPE_PRUNE_MESSAGE", hex(cast.hash)],
          ],
        );
        assert.deepEqual((await get(hub.stack, `/v1/castsByFid?fid=${dan.fid}`)).body.messages, []);
        assert.deepEqual(await hub.storeLimit(dan.fid, "CASTS"), [0, 0]);
        await assertRefused(hub.stack, await castAdd(dan, "gone"), "bad_request.no_storage", "no storage");
      });
    });

    it("keeps a loan standing when the key that signed it is removed", async () => {
      const henry = await newAccount(hub.stack, 2);
      const ivy = await newAccount(hub.stack, 1);
      const standing = await loan(henry, ivy.fid, 1);
      assert.equal((await submit(hub.stack, standing)).status, 200);
      await hub.stack.chain.chain.removeKey(henry.fid, henry.signerKey);
      await hub.stack.hub.service.syncChain();
      assert.deepEqual(
        ok(await rpc.client.getAllLendStorageMessagesByFid({ fid: henry.fid })).messages.map((m) =>
          hex(m.hash),
        ),
        [hex(standing.hash)],
      );
      assert.deepEqual(await cohortOf(hub.stack, ivy.fid), details(2, 1, 0, 1));
      const revoked = (await allEvents(hub.stack)).filter((e) => e.type === "HUB_EVENT_TYPE_REVOKE_MESSAGE");
      assert.ok(revoked.every((e) => e.revokeMessageBody.message.hash !== hex(standing.hash)));
    });

    describe("on mainnet", () => {
      let mainnet: Hub;
      before(async () => {
        mainnet = await hub.stack.startSeparateHub({ network: "mainnet" });
      });

      it("lets only a fid that rents 1000 units of the cohort lend it", async () => {
        const small = await newAccount(hub.stack, 999);
        const large = await newAccount(hub.stack, 1000);
        await mainnet.service.syncChain();
        const onMainnet = async (from: Account) =>
          unwrap(
            await core.makeLendStorage(
              lendBody(carol.fid, 1, UNITS_2024),
              { fid: from.fid, network: MAINNET },
              from.signer,
            ),
          );
        await assertRefused(
          mainnet,
          await onMainnet(small),
          "bad_request.validation_failure",
          "insufficient storage",
        );
        const accepted = await post(mainnet, "/v1/submitMessage", encode(await onMainnet(large)));
        assert.equal(accepted.status, 200);
        assert.deepEqual(await cohortOf(mainnet, large.fid), details(999, 1000, 1, 0));
      });
    });

    describe("a year later, when the lender's rent has run out", () => {
      let clock: number;
      let later: Hub;
      let kim: Account;
      let leo: Account;
      before(async () => {
        clock = Date.now();
        later = await hub.stack.startSeparateHub({ now: () => clock });
        kim = await newAccount(hub.stack, 2);
        leo = await newAccount(hub.stack, 1);
        await later.service.syncChain();
        assert.equal(
          (await post(later, "/v1/submitMessage", encode(await loan(kim, leo.fid, 1)))).status,
          200,
        );
        clock += 366 * DAY_MS;
      });

      it("leaves the loan to the borrower and the lender with nothing", async () => {
        assert.deepEqual(await cohortOf(later, leo.fid), details(1, 0, 0, 1));
        assert.deepEqual(await cohortOf(later, kim.fid), details(0, 0, 1, 0));
      });

      it("refuses the lender's withdrawal until it rents again", async () => {
        const timestamp = Math.round((clock - 1609459200000) / 1000);
        const back = await signedByHand(kim, {
          type: 15,
          fid: kim.fid,
          timestamp,
          network: DEVNET,
          lendStorageBody: lendBody(leo.fid, 0, UNITS_2024),
        });
        await assertRefused(later, back, "bad_request.no_storage", "no storage");
      });
    });
  });
}
