/**
 * What the client API answers to input it cannot take (malformed JSON, wrong types, unknown fields and
 * parameters, oversize bodies), and who may call its operator routes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { testEngines } from "../support/databases.js";
import { type Harness, call, errorOf, sharedApi, startHarness } from "./support.js";

for (const engine of await testEngines()) {
  describe(`client API input on ${engine.engine}`, { skip: engine.skip }, () => {
    const api = sharedApi(engine);

    it("answers malformed JSON, wrong types, unknown fields and oversize bodies with 4xx in the error shape", async () => {
      assert.deepEqual(await api.send("POST", "/v2/signed-key-request", "{not json"), {
        status: 400,
        body: errorOf("request body is not valid JSON"),
      });
      assert.deepEqual(await api.send("POST", "/v1/admin/sponsors/5", { credits: 1 }), {
        status: 404,
        body: errorOf("There is no route POST /v1/admin/sponsors/5"),
      });
      assert.deepEqual(await api.send("PUT", "/v1/admin/sponsors/5", { credits: "1" }), {
        status: 400,
        body: errorOf('field "credits" must be integer'),
      });
      assert.deepEqual(await api.send("PUT", "/v1/admin/sponsors/5", { credits: 1, extra: true }), {
        status: 400,
        body: errorOf('field "extra" is not allowed'),
      });
      const huge = await api.send("POST", "/v1/admin/channels", { id: "x", name: "x".repeat(100_000) });
      assert.deepEqual(huge, { status: 413, body: errorOf("request body is too large") });
      assert.deepEqual(await api.get("/v1/channel?channelId=music&extra=1"), {
        status: 400,
        body: errorOf('query parameter "extra" is not allowed'),
      });
      assert.deepEqual(await api.get("/v1/user-channel?fid=99999999999999999999&channelId=music"), {
        status: 400,
        body: errorOf('query parameter "fid" must be <= 9007199254740991'),
      });
    });
  });

  describe(`operator access on ${engine.engine}`, { skip: engine.skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(engine, { adminToken: "s3cret-token" });
    });
    after(() => h?.close());

    it("needs the admin token as a Bearer token when one is configured", async () => {
      const body = { credits: 5 };
      const denied = errorOf("this operator endpoint needs the admin token as a Bearer token");
      assert.deepEqual(await call(h.url, "PUT", "/v1/admin/sponsors/7", body), { status: 401, body: denied });
      assert.deepEqual(
        await call(h.url, "PUT", "/v1/admin/sponsors/7", body, { authorization: "Bearer wrong" }),
        {
          status: 401,
          body: denied,
        },
      );
      assert.deepEqual(
        await call(h.url, "PUT", "/v1/admin/sponsors/7", body, { authorization: "Bearer s3cret-token" }),
        { status: 200, body: { result: { sponsor: { fid: 7, credits: 5 } } } },
      );
      // Refused before the body is looked at.
      assert.deepEqual(await call(h.url, "PUT", "/v1/admin/sponsors/7", "{bad"), {
        status: 401,
        body: denied,
      });
    });

    it("accepts operator writes from loopback only when no token is configured", async () => {
      const open = await h.restart({ adminToken: undefined });
      const remote = await open.app.inject({
        method: "PUT",
        url: "/v1/admin/sponsors/7",
        payload: { credits: 1 },
        remoteAddress: "10.1.2.3",
      });
      assert.equal(remote.statusCode, 403);
      assert.deepEqual(
        remote.json(),
        errorOf(
          "operator writes are accepted from loopback addresses only (start castnet with --admin-token to allow others)",
        ),
      );
      const local = await open.app.inject({
        method: "PUT",
        url: "/v1/admin/sponsors/7",
        payload: { credits: 1 },
      });
      assert.equal(local.statusCode, 200);
    });
  });
}
