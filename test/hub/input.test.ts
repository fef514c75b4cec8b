/** Hostile input: every bad body and query gets a 4xx in the hub's error shape; nothing is stored. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { REFERENCE } from "../../src/protocol/naming.js";
import { testEngines } from "../support/databases.js";
import {
  castAdd,
  encode,
  get,
  hex,
  newAccount,
  post,
  startStack,
  type Account,
  type Stack,
} from "./support.js";

function assertHubError(status: number, body: Record<string, unknown>, expectedStatus?: number) {
  assert.ok(status >= 400 && status < 500, `status ${status}: ${JSON.stringify(body)}`);
  if (expectedStatus !== undefined) assert.equal(status, expectedStatus, JSON.stringify(body));
  assert.deepEqual(Object.keys(body), ["errCode", "presentable", "name", "code", "details", "metadata"]);
  assert.equal(body.name, "HubError");
  assert.equal(body.presentable, false);
  assert.deepEqual(body.metadata, { errcode: [body.errCode] });
  assert.equal(typeof body.details, "string");
}

for (const engine of await testEngines()) {
  describe(`hub bad input on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
    });
    after(async () => {
      await stack?.close();
    });

    async function storedMessages(): Promise<number> {
      const info = await get(stack, "/v1/info?dbstats=true");
      return info.body.dbStats.numMessages;
    }

    it("refuses empty, truncated, mangled, random and oversize bodies without storing anything", async () => {
      const before = await storedMessages();
      const original = await castAdd(alice, "the real one");
      const valid = encode(original);
      const empty = await post(stack, "/v1/submitMessage", new Uint8Array());
      assertHubError(empty.status, empty.body, 400);
      assert.equal(empty.body.errCode, "bad_request.parse_failure");

      for (let cut = 1; cut < valid.length; cut += 7) {
        const response = await post(stack, "/v1/submitMessage", valid.subarray(0, cut));
        assertHubError(response.status, response.body);
      }
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 400 }), async (bytes) => {
          const response = await post(stack, "/v1/submitMessage", bytes);
          assertHubError(response.status, response.body);
        }),
        { numRuns: 150 },
      );
      await fc.assert(
        fc.asyncProperty(fc.nat(valid.length - 1), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
          const mangled = valid.slice();
          mangled[at]! ^= flip;
          const response = await post(stack, "/v1/submitMessage", mangled);
          // A flip in the `data` copy (data_bytes is what counts) or in a field tag may leave the same
          // signed message; anything else must be refused. Nothing but the original can get in.
          if (response.status === 200) assert.equal(response.body.hash, hex(original.hash));
          else assertHubError(response.status, response.body);
        }),
        { numRuns: 100 },
      );
      const oversize = await post(stack, "/v1/submitMessage", new Uint8Array(200 * 1024));
      assertHubError(oversize.status, oversize.body, 413);

      const json = await stack.hub.app.inject({
        method: "POST",
        url: "/v1/submitMessage",
        headers: { "content-type": "application/json" },
        payload: "{}",
      });
      assertHubError(json.statusCode, JSON.parse(json.body), 415);
      assert.ok((await storedMessages()) <= before + 1);
      await post(stack, "/v1/submitMessage", valid);
      assert.equal(await storedMessages(), before + 1);
    });

    it("refuses bad query parameters with 400 and clear sentences", async () => {
      const cases: [string, string][] = [
        ["/v1/castsByFid", 'query parameter "fid" is required'],
        ["/v1/castsByFid?fid=abc", 'query parameter "fid" must be integer'],
        ["/v1/castsByFid?fid=-1", 'query parameter "fid" must be >= 0'],
        ["/v1/castsByFid?fid=99999999999999999999", 'query parameter "fid" must be <= 9007199254740991'],
        ["/v1/castById?fid=1&hash=xyz", "hash must be hex"],
        ["/v1/castById?fid=1&hash=0xabcd", "hash must be 20 bytes of hex"],
        ["/v1/castsByFid?fid=1&pageToken=!!!", "pageToken is not a page token this hub gave out"],
        ["/v1/castsByFid?fid=1&pageToken=AAAA", "pageToken is not a page token this hub gave out"],
        ["/v1/castsByFid?fid=1&pageSize=-5", 'query parameter "pageSize" must be >= 0'],
        [
          "/v1/reactionsByFid?fid=1&reaction_type=REACTION_TYPE_HUG",
          "reaction_type must be one of REACTION_TYPE_LIKE, REACTION_TYPE_RECAST, Like, Recast or its number",
        ],
        [
          "/v1/reactionsByFid?fid=1&reaction_type=9",
          "reaction_type must be one of REACTION_TYPE_LIKE, REACTION_TYPE_RECAST, Like, Recast or its number",
        ],
        [
          "/v1/reactionById?fid=1&target_fid=1&target_hash=0x00",
          'query parameter "reaction_type" is required',
        ],
        ["/v1/castsByParent?fid=1", "castsByParent needs fid and hash, or url"],
        [
          "/v1/linksByFid?fid=1&link_type=waytoolongtype",
          'query parameter "link_type" must NOT have more than 8 characters',
        ],
        ["/v1/onChainEventsByFid?fid=1", 'query parameter "event_type" is required'],
        [
          "/v1/onChainEventsByFid?fid=1&event_type=EVENT_TYPE_NONE",
          "event_type must be one of EVENT_TYPE_SIGNER, EVENT_TYPE_SIGNER_MIGRATED, EVENT_TYPE_ID_REGISTER, EVENT_TYPE_STORAGE_RENT or its number",
        ],
        ["/v1/onChainIdRegistryEventByAddress?address=0x1234", "address must be 20 bytes of hex"],
        [
          "/v1/verificationsByFid?fid=1&address=nope",
          "address must be a 0x-hex Ethereum address or a base58 Solana address",
        ],
        ["/v1/eventById", 'query parameter "event_id" is required'],
        ["/v1/events?from_event_id=x", 'query parameter "from_event_id" must be integer'],
        ["/v1/fids?pageToken=AAAA", "pageToken is not a page token this hub gave out"],
      ];
      for (const [url, details] of cases) {
        const response = await get(stack, url);
        assertHubError(response.status, response.body, 400);
        assert.equal(response.body.details, details, url);
      }
    });

    it("reads a space in a page token as the '+' it was before URL decoding", async () => {
      const token = Buffer.alloc(24, 0xfb).toString("base64");
      assert.ok(token.includes("+"));
      const spaced = await get(
        stack,
        `/v1/castsByFid?fid=${alice.fid}&pageToken=${token.replaceAll("+", "%20")}`,
      );
      assert.deepEqual([spaced.status, spaced.body], [200, { messages: [], nextPageToken: "" }]);
    });

    it("takes operator calls from loopback only when there is no admin token", async () => {
      const local = await stack.hub.app.inject({ method: "POST", url: "/v1/admin/sync" });
      assert.equal(local.statusCode, 200);
      const remote = await stack.hub.app.inject({
        method: "POST",
        url: "/v1/admin/sync",
        remoteAddress: "10.1.2.3",
      });
      assertHubError(remote.statusCode, JSON.parse(remote.body), 403);
      assert.equal(JSON.parse(remote.body).errCode, "unauthorized");
    });

    it("answers 404 for unknown routes and missing things, and CORS preflights", async () => {
      const route = await get(stack, "/v1/castsByNothing");
      assertHubError(route.status, route.body, 404);
      assert.equal(route.body.errCode, "not_found");
      const missing = await get(stack, `/v1/castById?fid=${alice.fid}&hash=${hex(new Uint8Array(20))}`);
      assertHubError(missing.status, missing.body, 404);
      const preflight = await stack.hub.app.inject({
        method: "OPTIONS",
        url: "/v1/submitMessage",
        headers: { origin: "https://app.example", "access-control-request-method": "POST" },
      });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers["access-control-allow-origin"], "*");
      const simple = await stack.hub.app.inject({
        method: "GET",
        url: "/v1/info",
        headers: { origin: "https://app.example" },
      });
      assert.equal(simple.headers["access-control-allow-origin"], "*");
    });
  });

  describe(`hub naming profiles on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack(engine, { naming: REFERENCE });
    });
    after(async () => {
      await stack?.close();
    });

    it("renders the reference profile's enum spellings", async () => {
      const alice = await newAccount(stack);
      const cast = await castAdd(alice, "hello");
      const response = await post(stack, "/v1/submitMessage", encode(cast));
      assert.equal(
        (response.body.data as { network: string }).network,
        `${REFERENCE.networkWord}_NETWORK_DEVNET`,
      );
    });
  });
}
