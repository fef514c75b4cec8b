/**
 * The operator's power-badge grants and revocations (docs/clientapi.md) and the holders list they
 * change. The weekly recalculation they overrule is in powerBadges.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testEngines } from "../support/databases.js";
import { errorOf, sharedApi, withApi } from "./support.js";

for (const engine of await testEngines()) {
  describe(`power-badge grants on ${engine.engine}`, { skip: engine.skip }, () => {
    const api = sharedApi(engine);

    it("serves operator grants", async () => {
      await withApi(engine, async (own) => {
        await own.send("PUT", "/v1/admin/power-badges/9", { badge: "grant" });
        await own.send("PUT", "/v1/admin/power-badges/3", { badge: "grant" });
        assert.deepEqual(await own.get("/v2/power-badge-users"), {
          status: 200,
          body: { result: { fids: [3, 9] } },
        });
      });
    });

    it("lets a revocation take the place of a grant", async () => {
      await withApi(engine, async (own) => {
        await own.send("PUT", "/v1/admin/power-badges/9", { badge: "grant" });
        await own.send("PUT", "/v1/admin/power-badges/3", { badge: "grant" });
        const revoked = await own.send("PUT", "/v1/admin/power-badges/3", { badge: "revoke" });
        assert.deepEqual(revoked.body.result.holders, [9]);
        assert.deepEqual(revoked.body.result.revocations, [3]);
      });
    });

    it("clears a revocation once, answering 404 when there is none", async () => {
      await withApi(engine, async (own) => {
        await own.send("PUT", "/v1/admin/power-badges/3", { badge: "revoke" });
        const cleared = await own.send("DELETE", "/v1/admin/power-badges/3");
        assert.deepEqual(cleared.body.result.revocations, []);
        assert.deepEqual(await own.send("DELETE", "/v1/admin/power-badges/3"), {
          status: 404,
          body: errorOf("fid 3 has no power badge grant or revocation"),
        });
      });
    });

    it("refuses a badge other than grant or revoke", async () => {
      assert.deepEqual(await api.send("PUT", "/v1/admin/power-badges/3", { badge: "maybe" }), {
        status: 400,
        body: errorOf('field "badge" must be equal to one of the allowed values'),
      });
    });
  });
}
