import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { testEngines } from "../support/databases.js";
import { Harness, type User } from "./support.js";

for (const engine of await testEngines()) {
  describe(`registry bad input on ${engine.engine}`, { skip: engine.skip }, () => {
    const h = new Harness(engine);
    let user: User;
    let valid: Record<string, unknown>;

    before(async () => {
      await h.start();
      user = await h.user();
      valid = await h.body(user.account, { name: "valid", from: 0, to: user.fid, fid: user.fid });
    });
    after(() => h.stop());

    const refused = async (
      reply: Promise<{ status: number; body: Record<string, unknown> }>,
      status = 400,
    ) => {
      const { status: actual, body } = await reply;
      assert.equal(actual, status, JSON.stringify(body));
      assert.deepEqual(Object.keys(body), ["error"]);
      assert.equal(typeof body.error, "string");
      return body.error as string;
    };

    it("refuses bodies that are not a transfer request, with a 400 sentence", async () => {
      assert.equal(
        await refused(h.send("POST", "/transfers", '{"name": "valid", ')),
        "request body is not valid JSON",
      );
      assert.equal(await refused(h.send("POST", "/transfers", "[]")), "request body must be object");
      assert.equal(await refused(h.send("POST", "/transfers", "null")), "request body must be object");
      await refused(
        h.send("POST", "/transfers", "name=valid", h.url, "application/x-www-form-urlencoded"),
        415,
      );
      await refused(h.send("POST", "/transfers", "", h.url));
      const cases: [Record<string, unknown>, string][] = [
        [{ ...valid, from: "0" }, 'field "from" must be integer'],
        [{ ...valid, to: String(user.fid) }, 'field "to" must be integer'],
        [{ ...valid, fid: null }, 'field "fid" must be integer'],
        [{ ...valid, timestamp: 1.5 }, 'field "timestamp" must be integer'],
        [{ ...valid, to: -1 }, 'field "to" must be >= 0'],
        [{ ...valid, timestamp: 1e20 }, 'field "timestamp" must be <= 9007199254740991'],
        [{ ...valid, from: 2 ** 53 }, 'field "from" must be <= 9007199254740991'],
        [{ ...valid, name: 42 }, 'field "name" must be string'],
        [{ ...valid, extra: true }, 'field "extra" is not allowed'],
        [{ ...valid, owner: "0x1234" }, 'field "owner" must match pattern "^0x[0-9a-fA-F]{40}$"'],
        [
          { ...valid, owner: `0x${"g".repeat(40)}` },
          'field "owner" must match pattern "^0x[0-9a-fA-F]{40}$"',
        ],
        [{ ...valid, signature: "0xabc" }, 'field "signature" must match pattern "^0x([0-9a-fA-F]{2})*$"'],
        [{ ...valid, signature: "abcd" }, 'field "signature" must match pattern "^0x([0-9a-fA-F]{2})*$"'],
        [{ ...valid, signature: undefined }, 'field "signature" is required'],
      ];
      for (const [body, message] of cases)
        assert.equal(await refused(h.post(body)), message, JSON.stringify(body));
    });

    it("refuses an oversize body with 413", async () => {
      const error = await refused(h.post({ ...valid, name: "a".repeat(20_000) }), 413);
      assert.equal(error, "request body is too large");
    });

    it("refuses bad query parameters with a 400 sentence", async () => {
      for (const query of [
        "/transfers?fid=abc",
        "/transfers?from_id=-1",
        "/transfers?from_ts=1e400",
        "/transfers?from_id=99999999999999999999",
        "/transfers?limit=5",
        "/transfers?from_id=1&from_id=2",
        "/transfers/current?fid=abc",
        "/transfers/current?fid=1.5",
        "/transfers/current?from_id=1",
      ]) {
        await refused(h.get(query));
      }
      assert.equal(
        await refused(h.get("/transfers/current?fid=abc")),
        'query parameter "fid" must be integer',
      );
      assert.equal(await refused(h.get("/transfers?limit=5")), 'query parameter "limit" is not allowed');
    });

    it("answers unknown routes with a JSON 404", async () => {
      assert.equal(await refused(h.get("/transfer"), 404), "There is no route GET /transfer");
    });

    it("wrote nothing for the refused requests", async () => {
      assert.deepEqual((await h.get("/transfers")).body, { transfers: [] });
    });

    it("still accepts the valid request after the refused ones", async () => {
      assert.equal((await h.post(valid)).status, 200);
    });
  });
}
