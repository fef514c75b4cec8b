/** Sponsors (docs/clientapi.md): the operator's credit balances of the fids that sponsor signed key requests. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testEngines } from "../support/databases.js";
import { errorOf, sharedApi } from "./support.js";

for (const engine of await testEngines()) {
  describe(`sponsors on ${engine.engine}`, { skip: engine.skip }, () => {
    const api = sharedApi(engine);

    it("answers 404 for a fid not signed up as a sponsor", async () => {
      assert.deepEqual(await api.send("GET", "/v1/admin/sponsors/5"), {
        status: 404,
        body: errorOf("fid 5 is not signed up as a sponsor"),
      });
    });

    it("keeps sponsor credit balances", async () => {
      assert.deepEqual((await api.send("PUT", "/v1/admin/sponsors/6", { credits: 250 })).body, {
        result: { sponsor: { fid: 6, credits: 250 } },
      });
      assert.deepEqual((await api.send("GET", "/v1/admin/sponsors/6")).body, {
        result: { sponsor: { fid: 6, credits: 250 } },
      });
    });

    it("refuses a negative balance", async () => {
      assert.deepEqual(await api.send("PUT", "/v1/admin/sponsors/7", { credits: -1 }), {
        status: 400,
        body: errorOf('field "credits" must be >= 0'),
      });
      assert.equal((await api.send("GET", "/v1/admin/sponsors/7")).status, 404);
    });

    it("refuses unknown query parameters on sponsor reads", async () => {
      assert.deepEqual(await api.send("GET", "/v1/admin/sponsors/5?verbose=1"), {
        status: 400,
        body: errorOf('query parameter "verbose" is not allowed'),
      });
    });
  });
}
