import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { TransferFeedError, type Transfer, type TransferFeed } from "../../src/interfaces/transferFeed.js";
import { httpTransferFeed } from "../../src/interfaces/transferFeedHttp.js";
import { testEngines } from "../support/databases.js";
import { Harness, type User } from "./support.js";

for (const engine of await testEngines()) {
  describe(`following the registry on ${engine.engine}`, { skip: engine.skip }, () => {
    const h = new Harness(engine);
    let alice: User;
    let bob: User;
    let http: TransferFeed;
    let history: Transfer[];

    before(async () => {
      await h.start(h.withAdmin);
      alice = await h.user();
      bob = await h.user();
      http = httpTransferFeed(`${h.url}/`);
      assert.equal((await h.register(alice, "pingpong")).status, 200);
      // 101 admin moves back and forth (admins are not throttled): a name with more than a page of history.
      let holder = alice;
      for (let i = 0; i < 101; i++) {
        const next = holder === alice ? bob : alice;
        // A second apart: an admin signature authorises one transfer, and the same move recurs.
        h.clock += 1000;
        const body = await h.adminBody({
          name: "pingpong",
          from: holder.fid,
          to: next.fid,
          owner: next.account.address,
        });
        assert.equal((await h.post(body)).status, 200);
        holder = next;
      }
      history = [
        ...(await h.registry.feed.transfersAfter(0)),
        ...(await h.registry.feed.transfersAfter(100)),
      ];
      assert.equal(history.length, 102);
    });
    after(() => h.stop());

    it("reads the signer and pages of transfers over HTTP as in process", async () => {
      assert.equal(await http.signer(), h.server.address);
      assert.deepEqual(await http.transfersAfter(0), history.slice(0, 100));
      assert.deepEqual(await http.transfersAfter(100), history.slice(100));
      assert.deepEqual(await http.transfersAfter(102), []);
    });

    it("reads every transfer of a name, past the first page", async () => {
      assert.deepEqual(await http.transfersByName("pingpong"), history);
      assert.deepEqual(await h.registry.feed.transfersByName("pingpong"), history);
      assert.deepEqual(await http.transfersByName("nobody"), []);
    });

    describe("in-process listeners", () => {
      const calls: string[] = [];
      let stopA: () => void;
      let stopB: () => void;
      let carol: User;

      before(() => {
        stopA = h.registry.feed.onTransfer(() => calls.push("a"));
        stopB = h.registry.feed.onTransfer(() => {
          calls.push("b");
          throw new Error("a listener's failure stays its own");
        });
      });

      it("are told after a committed insert, each despite another's failure", async () => {
        carol = await h.user();
        assert.equal((await h.register(carol, "carol")).status, 200);
        assert.deepEqual(calls, ["a", "b"]);
      });

      it("are not told of a replay or a refusal, which insert nothing", async () => {
        assert.equal((await h.register(carol, "carol")).status, 200);
        assert.equal((await h.register(carol, "carol2")).status, 400);
        assert.deepEqual(calls, ["a", "b"]);
      });

      it("are told nothing once stopped", async () => {
        stopA();
        stopB();
        const dave = await h.user();
        assert.equal((await h.register(dave, "dave")).status, 200);
        assert.deepEqual(calls, ["a", "b"]);
      });
    });

    it("wakes HTTP listeners every 5 s while someone listens", (t) => {
      t.mock.timers.enable({ apis: ["setInterval"] });
      let calls = 0;
      const stop = http.onTransfer(() => calls++);
      t.mock.timers.tick(4_999);
      assert.equal(calls, 0);
      t.mock.timers.tick(1);
      assert.equal(calls, 1);
      t.mock.timers.tick(10_000);
      assert.equal(calls, 3);
      stop();
      t.mock.timers.tick(10_000);
      assert.equal(calls, 3);
    });

    it("reports an unreachable or misbehaving registry as a TransferFeedError", async () => {
      const closed = httpTransferFeed("http://127.0.0.1:9");
      await assert.rejects(closed.signer(), TransferFeedError);
      await assert.rejects(closed.transfersAfter(0), TransferFeedError);
      // A base URL under which there is no registry.
      const wrong = httpTransferFeed(`${h.url}/elsewhere`);
      await assert.rejects(wrong.transfersAfter(0), /registry answered 404 for \/elsewhere\/transfers/);
      await assert.rejects(wrong.signer(), TransferFeedError);
    });
  });
}
