import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Transfer } from "../../src/registry/index.js";
import { testEngines } from "../support/databases.js";
import { Harness, type User } from "./support.js";

for (const engine of await testEngines()) {
  describe(`GET /transfers filters and paging on ${engine.engine}`, { skip: engine.skip }, () => {
    const h = new Harness(engine);
    const users: User[] = [];
    let all: Transfer[];
    let moved: User;

    const list = async (query: string) => {
      const reply = await h.get(`/transfers${query}`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.transfers as Transfer[];
    };
    const ids = (transfers: Transfer[]) => transfers.map((t) => t.id);

    before(async () => {
      await h.start(h.withAdmin);
      const base = h.now - 300;
      for (let i = 0; i < 104; i++) {
        const user = await h.user();
        users.push(user);
        // Timestamps out of id order and shared by several transfers, for the from_ts ordering.
        const reply = await h.register(user, `p${i}`, base + ((i * 37) % 50));
        assert.equal(reply.status, 200);
      }
      // One fid-to-fid transfer (by the admin), so that a fid appears as `from` and as `to`.
      moved = await h.user();
      const body = await h.adminBody({
        name: "p0",
        from: users[0]!.fid,
        to: moved.fid,
        owner: moved.account.address,
      });
      assert.equal((await h.post(body)).status, 200);
      all = [...(await list("")), ...(await list("?from_id=100"))];
      assert.equal(all.length, 105);
    });
    after(() => h.stop());

    it("pages by id ascending, 100 at a time, with an exclusive from_id", async () => {
      assert.deepEqual(
        ids(await list("")),
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      assert.deepEqual(ids(await list("?from_id=100")), [101, 102, 103, 104, 105]);
      assert.deepEqual(ids(await list("?from_id=104")), [105]);
      assert.deepEqual(await list("?from_id=105"), []);
      assert.deepEqual(await list("?from_id=9999999"), []);
      // 0 means "not given", and the camelCase alias wins over from_id.
      assert.deepEqual(ids(await list("?from_id=0")), ids(await list("")));
      assert.deepEqual(ids(await list("?fromId=103&from_id=1")), [104, 105]);
    });

    it("orders by timestamp, then id, with an exclusive from_ts", async () => {
      const after = all[0]!.timestamp + 10;
      const expected = all
        .filter((t) => t.timestamp > after)
        .sort((a, b) => a.timestamp - b.timestamp || a.id - b.id)
        .map((t) => t.id);
      assert.ok(expected.length > 0 && expected.length < 100);
      assert.deepEqual(ids(await list(`?from_ts=${after}`)), expected);
      const newest = Math.max(...all.map((t) => t.timestamp));
      assert.deepEqual(await list(`?from_ts=${newest}`), []);
      // Combined with from_id: both bounds hold.
      assert.deepEqual(
        ids(await list(`?from_ts=${after}&from_id=50`)),
        expected.filter((id) => id > 50),
      );
    });

    it("filters by name, exactly, with fname as an alias and NULs stripped", async () => {
      const p5 = all.filter((t) => t.username === "p5");
      assert.equal(p5.length, 1);
      assert.deepEqual(await list("?name=p5"), p5);
      assert.deepEqual(await list("?fname=p5"), p5);
      assert.deepEqual(await list("?name=p5%00%00%00"), p5);
      assert.deepEqual(await list("?name=P5"), []);
      assert.deepEqual(await list("?name=nobody"), []);
      assert.deepEqual(await list("?name=%00"), []);
      assert.deepEqual(ids(await list("?name=")), ids(await list("")));
      assert.deepEqual(ids(await list("?name=p0")), [1, 105]);
    });

    it("filters by fid in both directions", async () => {
      const first = users[0]!;
      assert.deepEqual(ids(await list(`?fid=${first.fid}`)), [1, 105]);
      assert.deepEqual(ids(await list(`?fid=${moved.fid}`)), [105]);
      // fid=0 means "not given", as in the reference.
      assert.deepEqual(ids(await list("?fid=0")), ids(await list("")));
    });

    it("combines every filter with AND", async () => {
      const first = users[0]!;
      assert.deepEqual(ids(await list(`?fid=${first.fid}&from_id=1`)), [105]);
      assert.deepEqual(ids(await list(`?fid=${first.fid}&name=p0`)), [1, 105]);
      assert.deepEqual(await list(`?fid=${first.fid}&name=p5`), []);
      const p0 = all.find((t) => t.id === 1)!;
      assert.deepEqual(ids(await list(`?fid=${first.fid}&from_ts=${p0.timestamp - 1}`)), [1, 105]);
      assert.deepEqual(ids(await list(`?fid=${first.fid}&from_ts=${p0.timestamp}`)), [105]);
    });

    it("finds the current transfer of a fid and of a name", async () => {
      const current = (await h.get(`/transfers/current?fid=${moved.fid}`)).body;
      assert.deepEqual(current, { transfer: all[104] });
      assert.deepEqual((await h.get("/transfers/current?name=p0")).body, { transfer: all[104] });
      assert.deepEqual((await h.get("/transfers/current?fname=p0")).body, { transfer: all[104] });
    });

    it("answers 404 for a fid or a name with no current transfer", async () => {
      const gone = await h.get(`/transfers/current?fid=${users[0]!.fid}`);
      assert.deepEqual([gone.status, gone.body], [404, { error: "Could not resolve current name" }]);
      const unknown = await h.get("/transfers/current?name=nobody");
      assert.deepEqual([unknown.status, unknown.body], [404, { error: "No transfer found" }]);
      const zero = await h.get("/transfers/current?fid=0");
      assert.deepEqual([zero.status, zero.body], [404, { error: "Could not resolve current name" }]);
    });

    it("finds the latest transfer by timestamp when given no filter", async () => {
      const newest = [...all].sort((a, b) => b.timestamp - a.timestamp || b.id - a.id)[0];
      assert.deepEqual((await h.get("/transfers/current")).body, { transfer: newest });
    });

    it("reads the same through the in-process feed", async () => {
      const feed = h.registry.feed;
      assert.deepEqual(await feed.transfersAfter(0), all.slice(0, 100));
      assert.deepEqual(await feed.transfersAfter(100), all.slice(100));
      assert.deepEqual(await feed.transfersAfter(105), []);
      assert.deepEqual(await feed.transfersByName("p0"), [all[0], all[104]]);
      assert.equal(await feed.signer(), h.server.address);
    });
  });
}
