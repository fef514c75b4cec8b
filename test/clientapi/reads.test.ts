import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { testEngines } from "../support/databases.js";
import { type Harness, type Reply, call, errorOf, startHarness } from "./support.js";

const NOW = 1_750_000_000;

for (const engine of await testEngines()) {
  describe(`client API reads and operator writes on ${engine.engine}`, { skip: engine.skip }, () => {
    let h: Harness;
    let get: (path: string) => ReturnType<typeof call>;
    let admin: (method: string, path: string, body?: unknown) => ReturnType<typeof call>;

    before(async () => {
      h = await startHarness(engine, { now: () => NOW * 1000 });
      get = (path) => call(h.url, "GET", path);
      admin = (method, path, body) => call(h.url, method, path, body);
    });
    after(() => h?.close());

    describe("channels", () => {
      it("starts with no channels", async () => {
        assert.deepEqual(await get("/v2/all-channels"), { status: 200, body: { result: { channels: [] } } });
      });

      it("creates a channel with every field and serves it in the reference's key order", async () => {
        const created = await admin("POST", "/v1/admin/channels", {
          id: "music",
          url: "https://demo.example/channel/music",
          name: "Music",
          description: "Hi @alice and @bob",
          descriptionMentions: [7, 8],
          descriptionMentionsPositions: [3, 13],
          imageUrl: "https://demo.example/music.png",
          headerImageUrl: "https://demo.example/music-header.png",
          leadFid: 4,
          moderatorFid: 5,
          moderatorFids: [5, 6],
          memberCount: 12,
          pinnedCastHash: "0xAbCdEf0123456789abcdef0123456789ABCDEF01",
          publicCasting: false,
          externalLink: { title: "Playlist", url: "https://demo.example/playlist" },
          createdAt: NOW - 1000,
        });
        const channel = {
          id: "music",
          url: "https://demo.example/channel/music",
          name: "Music",
          description: "Hi @alice and @bob",
          descriptionMentions: [7, 8],
          descriptionMentionsPositions: [3, 13],
          imageUrl: "https://demo.example/music.png",
          headerImageUrl: "https://demo.example/music-header.png",
          leadFid: 4,
          moderatorFid: 5,
          moderatorFids: [5, 6],
          createdAt: NOW - 1000,
          followerCount: 0,
          memberCount: 12,
          pinnedCastHash: "0xabcdef0123456789abcdef0123456789abcdef01",
          publicCasting: false,
          externalLink: { title: "Playlist", url: "https://demo.example/playlist" },
        };
        assert.deepEqual(created, { status: 201, body: { result: { channel } } });
        const read = await get("/v1/channel?channelId=music");
        assert.deepEqual(read, { status: 200, body: { result: { channel } } });
        assert.deepEqual(Object.keys(read.body.result.channel), Object.keys(channel));
      });

      it("leaves out optional fields that have no value", async () => {
        const created = await admin("POST", "/v1/admin/channels", {
          id: "books",
          url: "chain://eip155:1/erc721:0x000000000000000000000000000000000000b00c",
          name: "Books",
          imageUrl: "https://demo.example/books.png",
        });
        assert.equal(created.status, 201);
        assert.deepEqual(created.body.result.channel, {
          id: "books",
          url: "chain://eip155:1/erc721:0x000000000000000000000000000000000000b00c",
          name: "Books",
          imageUrl: "https://demo.example/books.png",
          createdAt: NOW,
          followerCount: 0,
        });
      });

      it("lists all channels oldest first", async () => {
        const { body } = await get("/v2/all-channels");
        assert.deepEqual(
          body.result.channels.map((c: { id: string }) => c.id),
          ["music", "books"],
        );
      });

      it("updates given fields, removes fields set to null, keeps the id", async () => {
        const updated = await admin("PATCH", "/v1/admin/channels/books", {
          name: "Books & reading",
          description: "Reading lists",
          leadFid: 9,
        });
        assert.equal(updated.status, 200);
        assert.equal(updated.body.result.channel.name, "Books & reading");
        assert.equal(updated.body.result.channel.leadFid, 9);
        const cleared = await admin("PATCH", "/v1/admin/channels/books", {
          leadFid: null,
          description: null,
        });
        assert.equal(cleared.body.result.channel.leadFid, undefined);
        assert.equal(cleared.body.result.channel.description, undefined);
        const renamed = await admin("PATCH", "/v1/admin/channels/books", { id: "novels" });
        assert.deepEqual(renamed, { status: 400, body: errorOf('field "id" is not allowed') });
      });

      it("refuses bad channels with a clear 4xx and writes nothing", async () => {
        const base = { url: "https://demo.example/x", name: "X", imageUrl: "https://demo.example/x.png" };
        assert.deepEqual(
          await admin("POST", "/v1/admin/channels", { ...base, id: "music", url: "https://demo.example/y" }),
          {
            status: 409,
            body: errorOf('a channel with id "music" already exists'),
          },
        );
        assert.deepEqual(
          await admin("POST", "/v1/admin/channels", {
            ...base,
            id: "other",
            url: "https://demo.example/channel/music",
          }),
          {
            status: 409,
            body: errorOf('channel "music" already uses the url https://demo.example/channel/music'),
          },
        );
        assert.equal((await admin("POST", "/v1/admin/channels", { ...base, id: "Bad Id" })).status, 400);
        assert.deepEqual(await admin("POST", "/v1/admin/channels", { ...base, id: "x", url: "ftp://x" }), {
          status: 400,
          body: errorOf("url must be an https, http or chain:// URL (the parent URL of the channel's casts)"),
        });
        assert.deepEqual(await admin("POST", "/v1/admin/channels", { ...base, id: "x", leadFid: "4" }), {
          status: 400,
          body: errorOf('field "leadFid" must be integer'),
        });
        assert.equal(
          (
            await admin("POST", "/v1/admin/channels", {
              ...base,
              id: "x",
              description: "a",
              descriptionMentions: [1],
            })
          ).status,
          400,
        );
        assert.deepEqual(await admin("PATCH", "/v1/admin/channels/nope", { name: "N" }), {
          status: 404,
          body: errorOf('No channel found with id "nope"'),
        });
        assert.deepEqual(
          (await get("/v2/all-channels")).body.result.channels.map((c: { id: string }) => c.id),
          ["music", "books"],
        );
      });

      it("answers a missing channelId with 400", async () => {
        assert.deepEqual(await get("/v1/channel"), {
          status: 400,
          body: errorOf('query parameter "channelId" is required'),
        });
      });

      it("answers an unknown channel with 404 on every channel read", async () => {
        assert.deepEqual(await get("/v1/channel?channelId=nope"), {
          status: 404,
          body: errorOf('No channel found with id "nope"'),
        });
        assert.deepEqual(await get("/v1/channel-followers?channelId=nope"), {
          status: 404,
          body: errorOf('No channel found with id "nope"'),
        });
        assert.deepEqual(await get("/v1/user-channel?fid=1&channelId=nope"), {
          status: 404,
          body: errorOf('No channel found with id "nope"'),
        });
      });
    });

    describe("follows", () => {
      it("pages followers newest first, with the deprecated fids beside users", async () => {
        // fids 1..7; 3 and 4 follow in the same second, so the tie is broken by follow order.
        const times = [100, 200, 300, 300, 500, 600, 700];
        for (const [i, t] of times.entries()) {
          const reply = await admin("PUT", `/v1/admin/channels/music/followers/${i + 1}`, {
            followedAt: NOW - 1000 + t,
          });
          assert.deepEqual(reply.body, { result: { following: true, followedAt: NOW - 1000 + t } });
        }
        const first = await get("/v1/channel-followers?channelId=music&limit=3");
        assert.equal(first.status, 200);
        assert.deepEqual(first.body.result, {
          users: [
            { fid: 7, followedAt: NOW - 300 },
            { fid: 6, followedAt: NOW - 400 },
            { fid: 5, followedAt: NOW - 500 },
          ],
          fids: [7, 6, 5],
        });
        assert.equal(typeof first.body.next.cursor, "string");
        const second = await get(`/v1/channel-followers?channelId=music&cursor=${first.body.next.cursor}`);
        assert.deepEqual(second.body.result.fids, [4, 3, 2]);
        const third = await get(`/v1/channel-followers?channelId=music&cursor=${second.body.next.cursor}`);
        assert.deepEqual(third.body, { result: { users: [{ fid: 1, followedAt: NOW - 900 }], fids: [1] } });
        assert.equal((await get("/v1/channel?channelId=music")).body.result.channel.followerCount, 7);
      });

      it("sees every follower exactly once while follows are added between pages", async () => {
        const seen: number[] = [];
        let cursor: string | undefined;
        let round = 0;
        do {
          const page = await get(
            `/v1/channel-followers?channelId=music&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
          );
          assert.equal(page.status, 200);
          seen.push(...page.body.result.fids);
          cursor = page.body.next?.cursor;
          round++;
          // A new follow now (before the cursor: not in this walk) and one dated long ago (after it: seen at the end).
          await admin("PUT", `/v1/admin/channels/music/followers/${100 + round}`, {});
          await admin("PUT", `/v1/admin/channels/music/followers/${200 + round}`, {
            followedAt: NOW - 100_000 + round,
          });
        } while (cursor);
        assert.deepEqual(seen.slice(0, 7), [7, 6, 5, 4, 3, 2, 1]);
        assert.equal(new Set(seen).size, seen.length);
        assert.ok(
          seen.slice(7).every((fid) => fid > 200),
          `old follows come last: ${seen}`,
        );
        assert.ok(
          seen.includes(201) && seen.includes(202),
          `follows dated before the cursor appear: ${seen}`,
        );
        for (const fid of seen) assert.ok(fid <= 7 || fid > 200);
        const count = (await get("/v1/channel?channelId=music")).body.result.channel.followerCount;
        assert.equal(count, 7 + 2 * round);
      });

      it("keeps the page size in the cursor unless limit is given again", async () => {
        const first = await get("/v1/channel-followers?channelId=music&limit=2");
        const kept = await get(`/v1/channel-followers?channelId=music&cursor=${first.body.next.cursor}`);
        assert.equal(kept.body.result.users.length, 2);
        const changed = await get(
          `/v1/channel-followers?channelId=music&limit=4&cursor=${first.body.next.cursor}`,
        );
        assert.equal(changed.body.result.users.length, 4);
        const all = await get("/v1/channel-followers?channelId=music");
        assert.equal(
          all.body.result.users.length,
          25 > all.body.result.fids.length ? all.body.result.fids.length : 25,
        );
      });

      it("refuses out-of-range limits and tampered or foreign cursors with 400", async () => {
        assert.deepEqual(await get("/v1/channel-followers?channelId=music&limit=0"), {
          status: 400,
          body: errorOf('query parameter "limit" must be >= 1'),
        });
        assert.deepEqual(await get("/v1/channel-followers?channelId=music&limit=101"), {
          status: 400,
          body: errorOf('query parameter "limit" must be <= 100'),
        });
        assert.deepEqual(await get("/v1/channel-followers?channelId=music&limit=ten"), {
          status: 400,
          body: errorOf('query parameter "limit" must be integer'),
        });
        const { body } = await get("/v1/channel-followers?channelId=music&limit=1");
        const cursor: string = body.next.cursor;
        const [payload, mac] = cursor.split(".");
        // The same position with another time: the MAC no longer matches.
        const forged = ["1", ...payload!.split("_").slice(1)].join("_");
        const bad = errorOf('query parameter "cursor" is not a cursor this list returned');
        for (const tampered of [
          `${forged}.${mac}`,
          `${payload}.AAAA${mac!.slice(4)}`,
          `${payload}.${mac}x`,
          "garbage",
          `${payload}`,
        ]) {
          assert.deepEqual(await get(`/v1/channel-followers?channelId=music&cursor=${tampered}`), {
            status: 400,
            body: bad,
          });
        }
        assert.deepEqual(await get(`/v1/channel-followers?channelId=books&cursor=${cursor}`), {
          status: 400,
          body: bad,
        });
        assert.deepEqual(await get(`/v1/user-following-channels?fid=1&cursor=${cursor}`), {
          status: 400,
          body: bad,
        });
        assert.deepEqual(await get(`/v1/channel-followers?channelId=music&cursor=${"a".repeat(300)}`), {
          status: 400,
          body: errorOf('query parameter "cursor" must NOT have more than 256 characters'),
        });
      });

      it("lists a fid's channels newest follow first, each with followedAt", async () => {
        await admin("PUT", "/v1/admin/channels/books/followers/1", { followedAt: NOW - 50 });
        const page = await get("/v1/user-following-channels?fid=1&limit=1");
        assert.equal(page.status, 200);
        assert.deepEqual(
          page.body.result.channels.map((c: { id: string; followedAt: number }) => [c.id, c.followedAt]),
          [["books", NOW - 50]],
        );
        assert.equal(page.body.result.channels[0].followerCount, 1);
        const rest = await get(`/v1/user-following-channels?fid=1&cursor=${page.body.next.cursor}`);
        assert.deepEqual(
          rest.body.result.channels.map((c: { id: string; followedAt: number }) => [c.id, c.followedAt]),
          [["music", NOW - 900]],
        );
        assert.equal(rest.body.next, undefined);
        assert.deepEqual(rest.body.result.channels[0].moderatorFids, [5, 6]);
        assert.deepEqual(await get("/v1/user-following-channels?fid=999"), {
          status: 200,
          body: { result: { channels: [] } },
        });
        assert.deepEqual(await get("/v1/user-following-channels?fid=-1"), {
          status: 400,
          body: errorOf('query parameter "fid" must be >= 1'),
        });
        assert.deepEqual(await get("/v1/user-following-channels?fid=abc"), {
          status: 400,
          body: errorOf('query parameter "fid" must be integer'),
        });
      });

      it("shows channel changes in followed-channel pages at once, also those made by another process", async () => {
        const before = (await get("/v1/user-following-channels?fid=1")).body.result.channels;
        assert.equal(before[0].name, "Books & reading");
        await admin("PATCH", "/v1/admin/channels/books", { name: "Reading room" });
        const renamed = (await get("/v1/user-following-channels?fid=1")).body.result.channels;
        assert.equal(renamed[0].name, "Reading room");
        const other = await h.restart();
        await other.service.follows.follow("books", 77, NOW - 5);
        await other.service.channels.update("books", { description: "Lists and reviews" });
        const after = (await get("/v1/user-following-channels?fid=1")).body.result.channels;
        assert.equal(after[0].followerCount, 2);
        assert.equal(after[0].description, "Lists and reviews");
        await other.service.follows.unfollow("books", 77);
        assert.equal(
          (await get("/v1/user-following-channels?fid=1")).body.result.channels[0].followerCount,
          1,
        );
        await other.close();
      });

      it("writes follow pages byte for byte as their response schemas would, across a cursor", async () => {
        const text = async (path: string) => {
          const response = await fetch(`${h.url}${path}`);
          assert.equal(response.status, 200);
          assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
          return response.text();
        };
        await admin("POST", "/v1/admin/channels", {
          id: "quotes",
          url: "https://demo.example/channel/quotes",
          name: 'The "quoted" \\ channel',
          description: 'Caf\u00e9 \u65e5\u672c \ud83c\udf89 "hi"\tback\\slash\nline \u0001 </script>',
          descriptionMentions: [3],
          descriptionMentionsPositions: [0],
          imageUrl: "https://demo.example/q.png",
          headerImageUrl: "https://demo.example/q-header.png",
          leadFid: 3,
          moderatorFid: 4,
          moderatorFids: [4, 5],
          memberCount: 0,
          pinnedCastHash: "0x" + "ab".repeat(20),
          publicCasting: false,
          externalLink: { title: 'Site "x"', url: "https://demo.example/x?a=1&b=2" },
          createdAt: NOW - 5000,
        });
        await admin("PUT", "/v1/admin/channels/quotes/followers/900", { followedAt: NOW - 20 });
        await admin("PUT", "/v1/admin/channels/music/followers/900", { followedAt: NOW - 30 });
        // The single-channel read is still written by its schema's serialiser.
        const channelText = async (id: string) =>
          (await text(`/v1/channel?channelId=${id}`)).slice('{"result":{"channel":'.length, -"}}".length);
        const followed = (json: string, at: number) => `${json.slice(0, -1)},"followedAt":${at}}`;

        const first = await text("/v1/user-following-channels?fid=900&limit=1");
        const cursor = JSON.parse(first).next.cursor;
        assert.equal(
          first,
          `{"result":{"channels":[${followed(await channelText("quotes"), NOW - 20)}]},"next":{"cursor":"${cursor}"}}`,
        );
        assert.equal(
          await text(`/v1/user-following-channels?fid=900&cursor=${cursor}`),
          `{"result":{"channels":[${followed(await channelText("music"), NOW - 30)}]}}`,
        );

        for (const fid of [901, 902, 903])
          await admin("PUT", `/v1/admin/channels/quotes/followers/${fid}`, { followedAt: NOW - fid + 880 });
        const users = await text("/v1/channel-followers?channelId=quotes&limit=2");
        const next = JSON.parse(users).next.cursor;
        const user = (fid: number) => ({ fid, followedAt: NOW - fid + 880 });
        assert.equal(
          users,
          JSON.stringify({
            result: { users: [user(900), user(901)], fids: [900, 901] },
            next: { cursor: next },
          }),
        );
        assert.equal(
          await text(`/v1/channel-followers?channelId=quotes&cursor=${next}`),
          JSON.stringify({ result: { users: [user(902), user(903)], fids: [902, 903] } }),
        );
      });

      it("tells whether a fid follows a channel, and since when", async () => {
        assert.deepEqual(await get("/v1/user-channel?fid=1&channelId=books"), {
          status: 200,
          body: { result: { following: true, followedAt: NOW - 50 } },
        });
        assert.deepEqual(await get("/v1/user-channel?fid=2&channelId=books"), {
          status: 200,
          body: { result: { following: false } },
        });
      });

      it("unfollows, idempotently", async () => {
        assert.deepEqual((await admin("DELETE", "/v1/admin/channels/books/followers/1")).body, {
          result: { following: false },
        });
        assert.deepEqual((await admin("DELETE", "/v1/admin/channels/books/followers/1")).body, {
          result: { following: false },
        });
        assert.deepEqual(await get("/v1/user-channel?fid=1&channelId=books"), {
          status: 200,
          body: { result: { following: false } },
        });
      });

      it("keeps the first time of a follow made twice", async () => {
        await admin("PUT", "/v1/admin/channels/books/followers/2", { followedAt: NOW - 10 });
        assert.deepEqual(
          (await admin("PUT", "/v1/admin/channels/books/followers/2", { followedAt: NOW })).body,
          {
            result: { following: true, followedAt: NOW - 10 },
          },
        );
      });

      it("keeps followerCount exact through unfollows and repeated follows", async () => {
        assert.equal((await get("/v1/channel?channelId=books")).body.result.channel.followerCount, 1);
      });

      it("answers a follow of an unknown channel with 404", async () => {
        assert.deepEqual(await admin("PUT", "/v1/admin/channels/nope/followers/2", {}), {
          status: 404,
          body: errorOf('No channel found with id "nope"'),
        });
      });
    });

    describe("blocks", () => {
      let mine: Reply;

      it("blocks a fid, answering the block", async () => {
        await admin("PUT", "/v1/admin/blocks/1/2", { createdAt: NOW - 30 });
        await admin("PUT", "/v1/admin/blocks/3/4", { createdAt: NOW - 20 });
        const made = await admin("PUT", "/v1/admin/blocks/1/5", { createdAt: NOW - 10 });
        assert.deepEqual(made.body, {
          result: { blockedUser: { blockerFid: 1, blockedFid: 5, createdAt: NOW - 10 } },
        });
      });

      it("lists blocks newest first, on both paths", async () => {
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
        assert.deepEqual(await get("/v1/blocked-users"), all);
        assert.deepEqual(await get("/fc/blocked-users"), all);
      });

      it("filters blocks by blocker, paging with a cursor", async () => {
        mine = await get("/v1/blocked-users?blockerFid=1&limit=1");
        assert.deepEqual(mine.body.result.blockedUsers, [
          { blockerFid: 1, blockedFid: 5, createdAt: NOW - 10 },
        ]);
        const next = await get(`/fc/blocked-users?blockerFid=1&cursor=${mine.body.next.cursor}`);
        assert.deepEqual(next.body, {
          result: { blockedUsers: [{ blockerFid: 1, blockedFid: 2, createdAt: NOW - 30 }] },
        });
      });

      it("refuses a cursor made for another blocker with 400", async () => {
        assert.equal(
          (await get(`/v1/blocked-users?blockerFid=3&cursor=${mine.body.next.cursor}`)).status,
          400,
        );
      });

      it("unblocks", async () => {
        assert.deepEqual((await admin("DELETE", "/v1/admin/blocks/3/4")).body, {
          result: { blocked: false },
        });
        assert.deepEqual((await get("/v1/blocked-users?blockerFid=3")).body, {
          result: { blockedUsers: [] },
        });
      });

      it("refuses a self-block", async () => {
        assert.deepEqual(await admin("PUT", "/v1/admin/blocks/3/3", {}), {
          status: 400,
          body: errorOf("a fid cannot block itself"),
        });
      });

      it("refuses a blockerFid below 1", async () => {
        assert.deepEqual(await get("/v1/blocked-users?blockerFid=0"), {
          status: 400,
          body: errorOf('query parameter "blockerFid" must be >= 1'),
        });
      });
    });

    describe("actions", () => {
      const action = (type: string, name: string, extra: object = {}) => ({
        type,
        name,
        icon: "zap",
        description: `${name} does a thing`,
        aboutUrl: `https://demo.example/${name}`,
        actionUrl: `https://demo.example/${name}/meta`,
        ...extra,
      });
      const ids: Record<string, number> = {};

      it("registers cast and composer actions", async () => {
        const made = await admin(
          "POST",
          "/v1/admin/actions",
          action("cast", "alpha", { postUrl: "https://demo.example/p" }),
        );
        assert.equal(made.status, 201);
        assert.deepEqual(made.body.result.action, {
          id: made.body.result.action.id,
          type: "cast",
          name: "alpha",
          icon: "zap",
          description: "alpha does a thing",
          aboutUrl: "https://demo.example/alpha",
          actionUrl: "https://demo.example/alpha/meta",
          action: { actionType: "post", postUrl: "https://demo.example/p" },
          installCount: 0,
        });
        ids.alpha = made.body.result.action.id;
        for (const name of ["beta", "gamma"])
          ids[name] = (await admin("POST", "/v1/admin/actions", action("cast", name))).body.result.action.id;
        for (const name of ["poll", "schedule", "images"])
          ids[name] = (
            await admin(
              "POST",
              "/v1/admin/actions",
              action("composer", name, { imageUrl: `https://demo.example/${name}.png` }),
            )
          ).body.result.action.id;
      });

      it("refuses bad actions", async () => {
        assert.deepEqual(
          await admin("POST", "/v1/admin/actions", action("cast", "delta", { icon: "banana" })),
          {
            status: 400,
            body: errorOf('icon "banana" is not one of the allowed Octicon names (see docs/clientapi.md)'),
          },
        );
        assert.deepEqual(await admin("POST", "/v1/admin/actions", action("composer", "delta")), {
          status: 400,
          body: errorOf("a composer action needs an imageUrl"),
        });
        assert.deepEqual(await admin("POST", "/v1/admin/actions", action("cast", "alpha")), {
          status: 409,
          body: errorOf("a cast action with actionUrl https://demo.example/alpha/meta is already registered"),
        });
        assert.deepEqual(await admin("POST", "/v1/admin/actions", action("cast", "x".repeat(31))), {
          status: 400,
          body: errorOf('field "name" must NOT have more than 30 characters'),
        });
        assert.deepEqual(await admin("PUT", "/v1/admin/actions/9999/installs/1"), {
          status: 404,
          body: errorOf("No action found with id 9999"),
        });
      });

      it("orders top actions by total users, ties newest first, and pages them", async () => {
        const installs: Record<string, number> = {
          alpha: 2,
          beta: 3,
          gamma: 2,
          poll: 1,
          schedule: 4,
          images: 0,
        };
        for (const [name, n] of Object.entries(installs))
          for (let fid = 1; fid <= n; fid++)
            await admin("PUT", `/v1/admin/actions/${ids[name]}/installs/${fid}`);
        // Installing twice counts once.
        await admin("PUT", `/v1/admin/actions/${ids.alpha}/installs/1`);
        const first = await get("/v2/discover-actions?list=top&limit=2");
        assert.deepEqual(
          first.body.result.actions.map((a: { name: string }) => a.name),
          ["beta", "gamma"],
        );
        const rest = await get(`/v2/discover-actions?list=top&cursor=${first.body.next.cursor}`);
        assert.deepEqual(rest.body, {
          result: {
            actions: [
              {
                name: "alpha",
                icon: "zap",
                description: "alpha does a thing",
                aboutUrl: "https://demo.example/alpha",
                actionUrl: "https://demo.example/alpha/meta",
                action: { actionType: "post", postUrl: "https://demo.example/p" },
              },
            ],
          },
        });
        const composer = await get("/v2/discover-composer-actions?list=top");
        assert.deepEqual(
          composer.body.result.actions.map((a: { name: string; imageUrl: string }) => [a.name, a.imageUrl]),
          [
            ["schedule", "https://demo.example/schedule.png"],
            ["poll", "https://demo.example/poll.png"],
            ["images", "https://demo.example/images.png"],
          ],
        );
        const uninstalled = await admin("DELETE", `/v1/admin/actions/${ids.schedule}/installs/1`);
        assert.equal(uninstalled.body.result.action.installCount, 3);
      });

      it("serves the curated featured list in its own order", async () => {
        await admin("PUT", `/v1/admin/actions/${ids.images}/featured`, { rank: 2 });
        await admin("PUT", `/v1/admin/actions/${ids.poll}/featured`, { rank: 1 });
        const last = await admin("PUT", `/v1/admin/actions/${ids.schedule}/featured`, {});
        assert.equal(last.body.result.action.featuredRank, 3);
        const first = await get("/v2/discover-composer-actions?list=featured&limit=2");
        assert.deepEqual(
          first.body.result.actions.map((a: { name: string }) => a.name),
          ["poll", "images"],
        );
        const rest = await get(
          `/v2/discover-composer-actions?list=featured&cursor=${first.body.next.cursor}`,
        );
        assert.deepEqual(
          rest.body.result.actions.map((a: { name: string }) => a.name),
          ["schedule"],
        );
        await admin("DELETE", `/v1/admin/actions/${ids.images}/featured`);
        const after = await get("/v2/discover-composer-actions?list=featured");
        assert.deepEqual(
          after.body.result.actions.map((a: { name: string }) => a.name),
          ["poll", "schedule"],
        );
        assert.deepEqual(await admin("PUT", `/v1/admin/actions/${ids.alpha}/featured`, {}), {
          status: 409,
          body: errorOf(`action ${ids.alpha} is a cast action; only composer actions are featured`),
        });
      });

      it("refuses an unknown or missing list", async () => {
        assert.deepEqual(await get("/v2/discover-actions?list=featured"), {
          status: 400,
          body: errorOf('query parameter "list" must be equal to one of the allowed values'),
        });
        assert.deepEqual(await get("/v2/discover-composer-actions"), {
          status: 400,
          body: errorOf('query parameter "list" is required'),
        });
      });
    });

    describe("power badges and sponsors", () => {
      it("serves operator grants", async () => {
        await admin("PUT", "/v1/admin/power-badges/9", { badge: "grant" });
        await admin("PUT", "/v1/admin/power-badges/3", { badge: "grant" });
        assert.deepEqual(await get("/v2/power-badge-users"), {
          status: 200,
          body: { result: { fids: [3, 9] } },
        });
      });

      it("lets a revocation take the place of a grant", async () => {
        const revoked = await admin("PUT", "/v1/admin/power-badges/3", { badge: "revoke" });
        assert.deepEqual(revoked.body.result.holders, [9]);
        assert.deepEqual(revoked.body.result.revocations, [3]);
      });

      it("clears a revocation once, answering 404 when there is none", async () => {
        const cleared = await admin("DELETE", "/v1/admin/power-badges/3");
        assert.deepEqual(cleared.body.result.revocations, []);
        assert.deepEqual(await admin("DELETE", "/v1/admin/power-badges/3"), {
          status: 404,
          body: errorOf("fid 3 has no power badge grant or revocation"),
        });
      });

      it("refuses a badge other than grant or revoke", async () => {
        assert.deepEqual(await admin("PUT", "/v1/admin/power-badges/3", { badge: "maybe" }), {
          status: 400,
          body: errorOf('field "badge" must be equal to one of the allowed values'),
        });
      });

      it("answers 404 for a fid not signed up as a sponsor", async () => {
        assert.deepEqual(await admin("GET", "/v1/admin/sponsors/5"), {
          status: 404,
          body: errorOf("fid 5 is not signed up as a sponsor"),
        });
      });

      it("keeps sponsor credit balances", async () => {
        assert.deepEqual((await admin("PUT", "/v1/admin/sponsors/5", { credits: 250 })).body, {
          result: { sponsor: { fid: 5, credits: 250 } },
        });
        assert.deepEqual((await admin("GET", "/v1/admin/sponsors/5")).body, {
          result: { sponsor: { fid: 5, credits: 250 } },
        });
      });

      it("refuses a negative balance", async () => {
        assert.equal((await admin("PUT", "/v1/admin/sponsors/5", { credits: -1 })).status, 400);
      });

      it("refuses unknown query parameters on sponsor reads", async () => {
        assert.deepEqual(await admin("GET", "/v1/admin/sponsors/5?verbose=1"), {
          status: 400,
          body: errorOf('query parameter "verbose" is not allowed'),
        });
      });
    });

    describe("hostile input", () => {
      it("answers malformed JSON, wrong types, unknown fields and oversize bodies with 4xx in the error shape", async () => {
        assert.deepEqual(await call(h.url, "POST", "/v2/signed-key-request", "{not json"), {
          status: 400,
          body: errorOf("request body is not valid JSON"),
        });
        assert.deepEqual(await call(h.url, "POST", "/v1/admin/sponsors/5", { credits: 1 }), {
          status: 404,
          body: errorOf("There is no route POST /v1/admin/sponsors/5"),
        });
        assert.deepEqual(await admin("PUT", "/v1/admin/sponsors/5", { credits: "1" }), {
          status: 400,
          body: errorOf('field "credits" must be integer'),
        });
        assert.deepEqual(await admin("PUT", "/v1/admin/sponsors/5", { credits: 1, extra: true }), {
          status: 400,
          body: errorOf('field "extra" is not allowed'),
        });
        const huge = await call(h.url, "POST", "/v1/admin/channels", { id: "x", name: "x".repeat(100_000) });
        assert.deepEqual(huge, { status: 413, body: errorOf("request body is too large") });
        assert.deepEqual(await get("/v1/channel?channelId=music&extra=1"), {
          status: 400,
          body: errorOf('query parameter "extra" is not allowed'),
        });
        assert.deepEqual(await get("/v1/user-channel?fid=99999999999999999999&channelId=music"), {
          status: 400,
          body: errorOf('query parameter "fid" must be <= 9007199254740991'),
        });
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
