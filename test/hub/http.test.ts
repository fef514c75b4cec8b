/** The hub's HTTP API end to end: every read endpoint and message type, exact JSON, paging, errors. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { listen } from "../../src/http/index.js";
import { httpActivitySource } from "../../src/interfaces/activityHttp.js";
import { testEngines } from "../support/databases.js";
import {
  castAdd,
  core,
  encode,
  get,
  hex,
  newAccount,
  options,
  post,
  protocolNow,
  startStack,
  unwrap,
  verificationAdd,
  type Account,
  type Json,
  type Stack,
} from "./support.js";

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

type Message = core.Message;

for (const engine of await testEngines()) {
  describe(`hub HTTP API on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    let bob: Account;
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
      bob = await newAccount(stack);
    });
    after(async () => {
      await stack?.close();
    });

    let parent: Message;
    let cast: Message;
    let expected: Json;

    it("stores a cast and answers it in the reference's exact JSON", async () => {
      parent = await castAdd(bob, "parent");
      assert.equal((await post(stack, "/v1/submitMessage", encode(parent))).status, 200);
      cast = await castAdd(alice, "hi @bob", {
        mentions: [bob.fid],
        mentionsPositions: [3],
        parentCastId: { fid: bob.fid, hash: parent.hash },
        embeds: [{ url: "https://example.com/a.png" }, { castId: { fid: bob.fid, hash: parent.hash } }],
      });
      expected = {
        data: {
          type: "MESSAGE_TYPE_CAST_ADD",
          fid: alice.fid,
          timestamp: cast.data!.timestamp,
          network: "SOCIAL_NETWORK_DEVNET",
          castAddBody: {
            embedsDeprecated: [],
            mentions: [bob.fid],
            parentCastId: { fid: bob.fid, hash: hex(parent.hash) },
            text: "hi @bob",
            mentionsPositions: [3],
            embeds: [
              { url: "https://example.com/a.png" },
              { castId: { fid: bob.fid, hash: hex(parent.hash) } },
            ],
            type: "CAST",
          },
        },
        hash: hex(cast.hash),
        hashScheme: "HASH_SCHEME_BLAKE3",
        signature: b64(cast.signature),
        signatureScheme: "SIGNATURE_SCHEME_ED25519",
        signer: hex(cast.signer),
        dataBytes: b64(cast.dataBytes!),
      };
      const submitted = await post(stack, "/v1/submitMessage", encode(cast));
      assert.equal(submitted.status, 200);
      assert.equal(submitted.headers["content-type"], "application/json; charset=utf-8");
      assert.deepEqual(submitted.body, expected);
      assert.equal(
        JSON.stringify(submitted.body),
        JSON.stringify(expected),
        "key order as the reference writes it",
      );
    });

    it("serves a cast by id, its hash with or without 0x", async () => {
      assert.deepEqual(
        (await get(stack, `/v1/castById?fid=${alice.fid}&hash=${hex(cast.hash)}`)).body,
        expected,
      );
      // Hashes are accepted without 0x too.
      const bare = hex(cast.hash).slice(2);
      assert.deepEqual((await get(stack, `/v1/castById?fid=${alice.fid}&hash=${bare}`)).body, expected);
    });

    it("serves a cast by its hash alone, or by its first hex digits", async () => {
      const hash = hex(cast.hash);
      for (const given of [
        hash,
        hash.slice(2),
        `0x${hash.slice(2).toUpperCase()}`,
        hash.slice(0, 10),
        hash.slice(0, 27),
      ])
        assert.deepEqual((await get(stack, `/v1/castByHash?hash=${given}`)).body, expected, given);
      const other = `0x${hash.slice(2, 10) === "ffffffff" ? "00000000" : "ffffffff"}${"0".repeat(32)}`;
      const missing = await get(stack, `/v1/castByHash?hash=${other}`);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.errCode, "not_found");
    });

    it("finds no removed cast by its hash, and no message of another store", async () => {
      const doomed = await castAdd(bob, "about to be removed");
      assert.equal((await post(stack, "/v1/submitMessage", encode(doomed))).status, 200);
      assert.equal((await get(stack, `/v1/castByHash?hash=${hex(doomed.hash)}`)).status, 200);
      const remove = unwrap(
        await core.makeCastRemove(
          { targetHash: doomed.hash },
          options(bob, doomed.data!.timestamp + 1),
          bob.signer,
        ),
      );
      assert.equal((await post(stack, "/v1/submitMessage", encode(remove))).status, 200);
      // The remove now holds the cast's set key, which is the cast's hash: it is not a cast.
      assert.equal((await get(stack, `/v1/castByHash?hash=${hex(doomed.hash)}`)).status, 404);
      assert.equal((await get(stack, `/v1/castByHash?hash=${hex(remove.hash)}`)).status, 404);
      const like = unwrap(
        await core.makeReactionAdd(
          { type: 1, targetCastId: { fid: alice.fid, hash: cast.hash } },
          options(bob),
          bob.signer,
        ),
      );
      assert.equal((await post(stack, "/v1/submitMessage", encode(like))).status, 200);
      assert.equal((await get(stack, `/v1/castByHash?hash=${hex(like.hash)}`)).status, 404);
    });

    it("refuses a hash shorter than 8 hex digits, longer than a hash, or not hex", async () => {
      for (const given of ["", "0x", "0x1234567", `0x${"a".repeat(41)}`, "0x12345678z", "hash"]) {
        const refused = await get(stack, `/v1/castByHash?hash=${given}`);
        assert.equal(refused.status, 400, given);
        assert.equal(refused.body.errCode, "bad_request.invalid_param", given);
      }
      const absent = await get(stack, "/v1/castByHash");
      assert.equal(absent.status, 400);
      assert.equal(absent.body.errCode, "bad_request.validation_failure");
    });

    it("lists a cast by its fid, its parent and its mentions", async () => {
      assert.deepEqual((await get(stack, `/v1/castsByFid?fid=${alice.fid}`)).body, {
        messages: [expected],
        nextPageToken: "",
      });
      assert.deepEqual((await get(stack, `/v1/castsByParent?fid=${bob.fid}&hash=${hex(parent.hash)}`)).body, {
        messages: [expected],
        nextPageToken: "",
      });
      assert.deepEqual((await get(stack, `/v1/castsByMention?fid=${bob.fid}`)).body, {
        messages: [expected],
        nextPageToken: "",
      });
    });

    describe("paging casts", () => {
      let carol: Account;
      const texts = (page: Record<string, Json>) => page.messages.map((m: Json) => m.data.castAddBody.text);

      before(async () => {
        carol = await newAccount(stack);
        const base = protocolNow() - 50;
        for (let i = 0; i < 5; i++) {
          const posted = await castAdd(
            carol,
            `cast ${i}`,
            { parentUrl: "https://example.com/channel" },
            base + i,
          );
          assert.equal((await post(stack, "/v1/submitMessage", encode(posted))).status, 200);
        }
      });

      it("pages forward with pageSize and pageToken, oldest first", async () => {
        const seen: string[] = [];
        let token = "";
        for (let i = 0; i < 3; i++) {
          const page = (
            await get(
              stack,
              `/v1/castsByFid?fid=${carol.fid}&pageSize=2&pageToken=${encodeURIComponent(token)}`,
            )
          ).body;
          seen.push(...texts(page));
          token = page.nextPageToken;
          if (i < 2) assert.notEqual(token, "");
        }
        assert.equal(token, "");
        assert.deepEqual(seen, ["cast 0", "cast 1", "cast 2", "cast 3", "cast 4"]);
      });

      it("gives a token after a full page only when more messages follow it", async () => {
        for (const reverse of [false, true]) {
          const all = (await get(stack, `/v1/castsByFid?fid=${carol.fid}&pageSize=5&reverse=${reverse}`))
            .body;
          assert.equal(all.messages.length, 5);
          assert.equal(all.nextPageToken, "");
          const first = (await get(stack, `/v1/castsByFid?fid=${carol.fid}&pageSize=4&reverse=${reverse}`))
            .body;
          assert.notEqual(first.nextPageToken, "");
          const rest = (
            await get(
              stack,
              `/v1/castsByFid?fid=${carol.fid}&pageSize=1&reverse=${reverse}&pageToken=${encodeURIComponent(first.nextPageToken)}`,
            )
          ).body;
          assert.deepEqual(texts(rest), [reverse ? "cast 0" : "cast 4"]);
          assert.equal(rest.nextPageToken, "");
        }
      });

      it("pages newest first with reverse, given as true or 1", async () => {
        const reversed = (await get(stack, `/v1/castsByFid?fid=${carol.fid}&pageSize=3&reverse=true`)).body;
        assert.deepEqual(texts(reversed), ["cast 4", "cast 3", "cast 2"]);
        // A "+" left unencoded in a token arrives as a space: it is read back as "+".
        const next = (
          await get(
            stack,
            `/v1/castsByFid?fid=${carol.fid}&pageSize=3&reverse=1&pageToken=${reversed.nextPageToken}`,
          )
        ).body;
        assert.deepEqual(texts(next), ["cast 1", "cast 0"]);
        assert.deepEqual(
          texts((await get(stack, `/v1/castsByFid?fid=${carol.fid}&pageSize=1&reverse=false`)).body),
          ["cast 0"],
        );
      });

      it("lists casts by parent URL", async () => {
        const byUrl = (
          await get(stack, `/v1/castsByParent?url=${encodeURIComponent("https://example.com/channel")}`)
        ).body;
        assert.deepEqual(texts(byUrl), ["cast 0", "cast 1", "cast 2", "cast 3", "cast 4"]);
      });

      it("clamps pageSize to the reference's maximum", async () => {
        assert.equal(
          (await get(stack, `/v1/castsByFid?fid=${carol.fid}&pageSize=100000`)).body.messages.length,
          5,
        );
      });
    });

    let target: Message;
    let like: Message;

    it("serves reactions by id, fid, cast and target URL, with types as numbers or names", async () => {
      target = await castAdd(bob, "react to me");
      await post(stack, "/v1/submitMessage", encode(target));
      like = unwrap(
        await core.makeReactionAdd(
          { type: 1, targetCastId: { fid: bob.fid, hash: target.hash } },
          options(alice, protocolNow() - 2),
          alice.signer,
        ),
      );
      const recast = unwrap(
        await core.makeReactionAdd(
          { type: 2, targetUrl: "https://example.com/article" },
          options(alice, protocolNow() - 1),
          alice.signer,
        ),
      );
      for (const m of [like, recast])
        assert.equal((await post(stack, "/v1/submitMessage", encode(m))).status, 200);

      const byId = await get(
        stack,
        `/v1/reactionById?fid=${alice.fid}&target_fid=${bob.fid}&target_hash=${hex(target.hash)}&reaction_type=REACTION_TYPE_LIKE`,
      );
      assert.equal(byId.status, 200);
      assert.deepEqual(byId.body.data.reactionBody, {
        type: "REACTION_TYPE_LIKE",
        targetCastId: { fid: bob.fid, hash: hex(target.hash) },
      });
      const hashes = (page: Record<string, Json>) => page.messages.map((m: Json) => m.hash);
      assert.deepEqual(hashes((await get(stack, `/v1/reactionsByFid?fid=${alice.fid}`)).body), [
        hex(like.hash),
        hex(recast.hash),
      ]);
      assert.deepEqual(
        hashes((await get(stack, `/v1/reactionsByFid?fid=${alice.fid}&reaction_type=2`)).body),
        [hex(recast.hash)],
      );
      assert.deepEqual(
        hashes(
          (
            await get(
              stack,
              `/v1/reactionsByCast?target_fid=${bob.fid}&target_hash=${hex(target.hash)}&reaction_type=1`,
            )
          ).body,
        ),
        [hex(like.hash)],
      );
      const byUrl = await get(
        stack,
        `/v1/reactionsByTarget?url=${encodeURIComponent("https://example.com/article")}`,
      );
      assert.deepEqual(byUrl.body.messages[0].data.reactionBody, {
        type: "REACTION_TYPE_RECAST",
        targetUrl: "https://example.com/article",
      });
    });

    it("removes a reaction with a remove message, and no longer serves it", async () => {
      const unlike = unwrap(
        await core.makeReactionRemove(
          { type: 1, targetCastId: { fid: bob.fid, hash: target.hash } },
          options(alice, like.data!.timestamp + 1),
          alice.signer,
        ),
      );
      const removed = await post(stack, "/v1/submitMessage", encode(unlike));
      assert.equal(removed.body.data && (removed.body.data as Json).type, "MESSAGE_TYPE_REACTION_REMOVE");
      const gone = await get(
        stack,
        `/v1/reactionById?fid=${alice.fid}&target_fid=${bob.fid}&target_hash=${hex(target.hash)}&reaction_type=1`,
      );
      assert.equal(gone.status, 404);
      assert.equal(gone.body.errCode, "not_found");
      assert.equal(gone.body.code, 5);
    });

    describe("links, user data and verifications", () => {
      let dave: Account;
      let verification: Message;
      let wallet: Awaited<ReturnType<typeof verificationAdd>>["wallet"];

      before(async () => {
        dave = await newAccount(stack);
        const follow = unwrap(
          await core.makeLinkAdd({ type: "follow", targetFid: bob.fid }, options(dave), dave.signer),
        );
        const bio = unwrap(
          await core.makeUserDataAdd({ type: 3, value: "I build hubs" }, options(dave), dave.signer),
        );
        const pfp = unwrap(
          await core.makeUserDataAdd(
            { type: 1, value: "https://example.com/me.png" },
            options(dave),
            dave.signer,
          ),
        );
        ({ message: verification, wallet } = await verificationAdd(dave));
        for (const m of [follow, bio, pfp, verification]) {
          const response = await post(stack, "/v1/submitMessage", encode(m));
          assert.equal(response.status, 200, JSON.stringify(response.body));
        }
      });

      it("serves links by id, by fid and type, and by target fid", async () => {
        const link = await get(stack, `/v1/linkById?fid=${dave.fid}&target_fid=${bob.fid}&link_type=follow`);
        assert.deepEqual(link.body.data.linkBody, { type: "follow", targetFid: bob.fid });
        assert.equal((await get(stack, `/v1/linksByFid?fid=${dave.fid}`)).body.messages.length, 1);
        assert.equal(
          (await get(stack, `/v1/linksByFid?fid=${dave.fid}&link_type=other`)).body.messages.length,
          0,
        );
        const followers = (await get(stack, `/v1/linksByTargetFid?target_fid=${bob.fid}&link_type=follow`))
          .body;
        assert.ok(followers.messages.some((m: Json) => m.data.fid === dave.fid));
      });

      it("serves a fid's user data, all of it or one type", async () => {
        const profile = (await get(stack, `/v1/userDataByFid?fid=${dave.fid}`)).body;
        assert.deepEqual(
          profile.messages
            .map((m: Json) => m.data.userDataBody)
            .sort((a: Json, b: Json) => a.type.localeCompare(b.type)),
          [
            { type: "USER_DATA_TYPE_BIO", value: "I build hubs" },
            { type: "USER_DATA_TYPE_PFP", value: "https://example.com/me.png" },
          ],
        );
        const one = await get(stack, `/v1/userDataByFid?fid=${dave.fid}&user_data_type=USER_DATA_TYPE_PFP`);
        assert.deepEqual(one.body.data.userDataBody, {
          type: "USER_DATA_TYPE_PFP",
          value: "https://example.com/me.png",
        });
        assert.deepEqual(
          (await get(stack, `/v1/userDataByFid?fid=${dave.fid}&user_data_type=2`)).status,
          404,
        );
      });

      it("serves a fid's verifications, all of them or one address", async () => {
        const verifications = (await get(stack, `/v1/verificationsByFid?fid=${dave.fid}`)).body;
        const body = verifications.messages[0].data.verificationAddAddressBody;
        assert.equal(body.address, wallet.address.toLowerCase());
        assert.equal(body.protocol, "PROTOCOL_ETHEREUM");
        assert.deepEqual(verifications.messages[0].data.verificationAddEthAddressBody, body);
        assert.equal(body.ethSignature, body.claimSignature);
        const single = await get(stack, `/v1/verificationsByFid?fid=${dave.fid}&address=${wallet.address}`);
        assert.equal(single.body.hash, hex(verification.hash));
      });

      it("gives a sign-in the fid's profile, in process and over HTTP alike (the client API's relay)", async () => {
        const expected = {
          verifications: [wallet.address.toLowerCase()],
          bio: "I build hubs",
          pfpUrl: "https://example.com/me.png",
        };
        const url = await listen(stack.hub.app, "hub", "127.0.0.1", 0);
        for (const source of [stack.hub.service, httpActivitySource(url)]) {
          assert.deepEqual(await source.profileOf(dave.fid), expected);
          assert.deepEqual(await source.profileOf(999_999), { verifications: [] });
        }
      });
    });

    let frame: Message;

    it("validates a frame action", async () => {
      frame = unwrap(
        await core.makeFrameAction(
          {
            url: new TextEncoder().encode("https://example.com/frame"),
            buttonIndex: 1,
            castId: { fid: bob.fid, hash: new Uint8Array(20).fill(9) },
            inputText: new Uint8Array(),
            state: new Uint8Array(),
            transactionId: new Uint8Array(),
            address: new Uint8Array(),
          },
          options(alice),
          alice.signer,
        ),
      );
      const valid = await post(stack, "/v1/validateMessage", encode(frame));
      assert.equal(valid.status, 200);
      assert.equal(valid.body.valid, true);
      assert.equal(
        (valid.body.message as Json).data.frameActionBody.url,
        b64(new TextEncoder().encode("https://example.com/frame")),
      );
    });

    it("refuses to store a frame action", async () => {
      const submitted = await post(stack, "/v1/submitMessage", encode(frame));
      assert.equal(submitted.status, 400);
      assert.equal(submitted.body.details, "invalid message type");
    });

    it("stores nothing it validates", async () => {
      // A cast validated is not there afterwards.
      const validated = await castAdd(alice, "only validated");
      assert.equal((await post(stack, "/v1/validateMessage", encode(validated))).status, 200);
      assert.equal(
        (await get(stack, `/v1/castById?fid=${alice.fid}&hash=${hex(validated.hash)}`)).status,
        404,
      );
    });

    it("serves a fid's on-chain events", async () => {
      const signers = (await get(stack, `/v1/onChainSignersByFid?fid=${alice.fid}`)).body;
      assert.equal(signers.events.length, 1);
      const event = signers.events[0];
      assert.deepEqual(Object.keys(event), [
        "type",
        "chainId",
        "blockNumber",
        "blockHash",
        "blockTimestamp",
        "transactionHash",
        "logIndex",
        "fid",
        "signerEventBody",
        "txIndex",
        "version",
      ]);
      assert.equal(event.signerEventBody.key, alice.signerKey);
      assert.equal(event.chainId, 10);
      const one = await get(stack, `/v1/onChainSignersByFid?fid=${alice.fid}&signer=${alice.signerKey}`);
      assert.deepEqual(one.body, event);
      for (const type of ["3", "EVENT_TYPE_ID_REGISTER"]) {
        const registered = (await get(stack, `/v1/onChainEventsByFid?fid=${alice.fid}&event_type=${type}`))
          .body;
        assert.equal(registered.events[0].idRegisterEventBody.to, alice.custody.address.toLowerCase());
      }
      const byAddress = await get(
        stack,
        `/v1/onChainIdRegistryEventByAddress?address=${alice.custody.address}`,
      );
      assert.equal(byAddress.body.fid, alice.fid);
      assert.equal((await get(stack, `/v1/onChainEventsByFid?fid=${alice.fid}&event_type=7`)).status, 400);
    });

    it("lists fids, paged when a pageSize is given", async () => {
      const first = (await get(stack, "/v1/fids?pageSize=1")).body;
      assert.equal(first.fids.length, 1);
      assert.equal(typeof first.nextPageToken, "string");
      const all = (await get(stack, "/v1/fids")).body;
      assert.ok(all.fids.includes(alice.fid) && all.fids.includes(bob.fid));
      assert.equal("nextPageToken" in all, false);
    });

    it("serves a fid's storage limits", async () => {
      const limits = (await get(stack, `/v1/storageLimitsByFid?fid=${alice.fid}`)).body;
      assert.equal(limits.units, 1);
      assert.deepEqual(limits.unitDetails, [
        {
          unitType: "UNIT_TYPE_LEGACY",
          unitSize: 0,
          purchasedUnitSize: 0,
          lentUnitSize: 0,
          borrowedUnitSize: 0,
        },
        {
          unitType: "UNIT_TYPE_2024",
          unitSize: 1,
          purchasedUnitSize: 1,
          lentUnitSize: 0,
          borrowedUnitSize: 0,
        },
      ]);
      assert.deepEqual(
        limits.limits.map((l: Json) => [l.storeType, l.name, l.limit]),
        [
          ["STORE_TYPE_CASTS", "CASTS", 2000],
          ["STORE_TYPE_LINKS", "LINKS", 1000],
          ["STORE_TYPE_REACTIONS", "REACTIONS", 1000],
          ["STORE_TYPE_USER_DATA", "USER_DATA", 50],
          ["STORE_TYPE_VERIFICATIONS", "VERIFICATIONS", 25],
          ["STORE_TYPE_USERNAME_PROOFS", "USERNAME_PROOFS", 5],
          ["STORE_TYPE_STORAGE_LENDS", "STORAGE_LENDS", 1],
        ],
      );
    });

    describe("hub events", () => {
      let first: Json;

      before(async () => {
        const erin = await newAccount(stack);
        const base = protocolNow() - 200;
        const casts = await Promise.all(
          Array.from({ length: 110 }, (_, i) => castAdd(erin, `event ${i}`, {}, base + i)),
        );
        await Promise.all(casts.map((cast) => post(stack, "/v1/submitMessage", encode(cast))));
        first = (await get(stack, "/v1/events?from_event_id=0")).body;
      });

      it("pages hub events by id, 100 at a time", async () => {
        assert.equal(first.events.length, 100);
        assert.equal(first.nextPageEventId, first.events[99].id + 1);
        const second = (await get(stack, `/v1/events?from_event_id=${first.nextPageEventId}`)).body;
        assert.ok(second.events[0].id > first.events[99].id);
        const past = 9_000_000_000_000_000;
        assert.deepEqual((await get(stack, `/v1/events?from_event_id=${past}`)).body, {
          nextPageEventId: past + 1,
          events: [],
        });
      });

      it("finds a hub event by event_id or id", async () => {
        const id = first.events[3].id;
        assert.deepEqual((await get(stack, `/v1/eventById?event_id=${id}`)).body, first.events[3]);
        assert.deepEqual((await get(stack, `/v1/eventById?id=${id}`)).body, first.events[3]);
        assert.equal((await get(stack, "/v1/eventById?event_id=1")).status, 404);
      });
    });
  });
}
