/** Blocks (docs/clientapi.md): the operator's blocks and the public blocked-users lists. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testEngines } from "../support/databases.js";
import { type Api, NOW, errorOf, sharedApi, withApi } from "./support.js";

/** Blocks made `ago` seconds before NOW, each as [blocker, blocked, ago]. */
async function block(api: Api, ...blocks: [number, number, number][]): Promise<void> {
  for (const [blocker, blocked, ago] of blocks) {
    const made = await api.send("PUT", `/v1/admin/blocks/${blocker}/${blocked}`, { createdAt: NOW - ago });
    assert.equal(made.status, 200, JSON.stringify(made.body));
  }
}

for (const engine of await testEngines()) {
  describe(`blocks on ${engine.engine}`, { skip: engine.skip }, () => {
    const api = sharedApi(engine);

    it("blocks a fid, answering the block", async () => {
      const made = await api.send("PUT", "/v1/admin/blocks/1/5", { createdAt: NOW - 10 });
      assert.deepEqual(made.body, {
        result: { blockedUser: { blockerFid: 1, blockedFid: 5, createdAt: NOW - 10 } },
      });
    });

    it("lists blocks newest first, on both paths", async () => {
      await withApi(engine, async (own) => {
        await block(own, [1, 2, 30], [3, 4, 20], [1, 5, 10]);
        const all = {
          status: 200,
          body: {
            result: {
              blockedUsers: [
                { blockerFid: 1, blockedFid: 5, createdAt: NOW - 10 },
                { blockerFid: 3, blockedFid: 4, createdAt: NOW - 20 },
                { blockerFid: 1, blockedFid: 2, createdAt: NOW - 30 },
              ],
            },
          },
        };
        assert.deepEqual(await own.get("/v1/blocked-users"), all);
        assert.deepEqual(await own.get("/fc/blocked-users"), all);
      });
    });

    it("filters blocks by blocker, paging with a cursor", async () => {
      await block(api, [21, 22, 30], [23, 24, 20], [21, 25, 10]);
      const mine = await api.get("/v1/blocked-users?blockerFid=21&limit=1");
      assert.deepEqual(mine.body.result.blockedUsers, [
        { blockerFid: 21, blockedFid: 25, createdAt: NOW - 10 },
      ]);
      const next = await api.get(`/fc/blocked-users?blockerFid=21&cursor=${mine.body.next.cursor}`);
      assert.deepEqual(next.body, {
        result: { blockedUsers: [{ blockerFid: 21, blockedFid: 22, createdAt: NOW - 30 }] },
      });
    });

    it("refuses a cursor made for another blocker with 400", async () => {
      await block(api, [31, 32, 30], [31, 33, 10], [34, 35, 20]);
      const mine = await api.get("/v1/blocked-users?blockerFid=31&limit=1");
      assert.equal(mine.status, 200);
      assert.deepEqual(await api.get(`/v1/blocked-users?blockerFid=34&cursor=${mine.body.next.cursor}`), {
        status: 400,
        body: errorOf('query parameter "cursor" is not a cursor this list returned'),
      });
    });

    it("unblocks", async () => {
      await block(api, [43, 44, 20]);
      assert.deepEqual((await api.send("DELETE", "/v1/admin/blocks/43/44")).body, {
        result: { blocked: false },
      });
      assert.deepEqual((await api.get("/v1/blocked-users?blockerFid=43")).body, {
        result: { blockedUsers: [] },
      });
    });

    it("refuses a self-block", async () => {
      assert.deepEqual(await api.send("PUT", "/v1/admin/blocks/3/3", {}), {
        status: 400,
        body: errorOf("a fid cannot block itself"),
      });
    });

    it("refuses a blockerFid below 1", async () => {
      assert.deepEqual(await api.get("/v1/blocked-users?blockerFid=0"), {
        status: 400,
        body: errorOf('query parameter "blockerFid" must be >= 1'),
      });
    });
  });
}
