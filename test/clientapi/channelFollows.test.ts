/** Channel follows (docs/clientapi.md): the operator's follows and the follower and followed-channel pages. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testEngines } from "../support/databases.js";
import { type Api, NOW, errorOf, sharedApi } from "./support.js";

async function createChannel(api: Api, id: string, more: Record<string, unknown> = {}): Promise<void> {
  const created = await api.send("POST", "/v1/admin/channels", {
    id,
    url: `https://demo.example/channel/${id}`,
    name: id,
    imageUrl: `https://demo.example/${id}.png`,
    ...more,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
}

/** fids 1..7 follow the channel; 3 and 4 in the same second, so the tie is broken by follow order. */
async function followSeven(api: Api, channelId: string): Promise<void> {
  const times = [100, 200, 300, 300, 500, 600, 700];
  for (const [i, t] of times.entries()) {
    const reply = await api.send("PUT", `/v1/admin/channels/${channelId}/followers/${i + 1}`, {
      followedAt: NOW - 1000 + t,
    });
    assert.deepEqual(reply.body, { result: { following: true, followedAt: NOW - 1000 + t } });
  }
}

for (const engine of await testEngines()) {
  describe(`channel follows on ${engine.engine}`, { skip: engine.skip }, () => {
    const api = sharedApi(engine);

    it("pages followers newest first, with the deprecated fids beside users", async () => {
      await createChannel(api, "paged");
      await followSeven(api, "paged");
      const first = await api.get("/v1/channel-followers?channelId=paged&limit=3");
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
      const second = await api.get(`/v1/channel-followers?channelId=paged&cursor=${first.body.next.cursor}`);
      assert.deepEqual(second.body.result.fids, [4, 3, 2]);
      const third = await api.get(`/v1/channel-followers?channelId=paged&cursor=${second.body.next.cursor}`);
      assert.deepEqual(third.body, { result: { users: [{ fid: 1, followedAt: NOW - 900 }], fids: [1] } });
      assert.equal((await api.get("/v1/channel?channelId=paged")).body.result.channel.followerCount, 7);
    });

    it("sees every follower exactly once while follows are added between pages", async () => {
      await createChannel(api, "walked");
      await followSeven(api, "walked");
      const seen: number[] = [];
      let cursor: string | undefined;
      let round = 0;
      do {
        const page = await api.get(
          `/v1/channel-followers?channelId=walked&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        );
        assert.equal(page.status, 200);
        seen.push(...page.body.result.fids);
        cursor = page.body.next?.cursor;
        round++;
        // A new follow now (before the cursor: not in this walk) and one dated long ago (after it: seen at the end).
        await api.send("PUT", `/v1/admin/channels/walked/followers/${100 + round}`, {});
        await api.send("PUT", `/v1/admin/channels/walked/followers/${200 + round}`, {
          followedAt: NOW - 100_000 + round,
        });
      } while (cursor);
      assert.deepEqual(seen.slice(0, 7), [7, 6, 5, 4, 3, 2, 1]);
      assert.equal(new Set(seen).size, seen.length);
      assert.ok(
        seen.slice(7).every((fid) => fid > 200),
        `old follows come last: ${seen}`,
      );
      assert.ok(seen.includes(201) && seen.includes(202), `follows dated before the cursor appear: ${seen}`);
      for (const fid of seen) assert.ok(fid <= 7 || fid > 200);
      const count = (await api.get("/v1/channel?channelId=walked")).body.result.channel.followerCount;
      assert.equal(count, 7 + 2 * round);
    });

    it("keeps the page size in the cursor unless limit is given again", async () => {
      await createChannel(api, "sized");
      await followSeven(api, "sized");
      const first = await api.get("/v1/channel-followers?channelId=sized&limit=2");
      const kept = await api.get(`/v1/channel-followers?channelId=sized&cursor=${first.body.next.cursor}`);
      assert.equal(kept.body.result.users.length, 2);
      const changed = await api.get(
        `/v1/channel-followers?channelId=sized&limit=4&cursor=${first.body.next.cursor}`,
      );
      assert.equal(changed.body.result.users.length, 4);
      const all = await api.get("/v1/channel-followers?channelId=sized");
      assert.deepEqual(all.body.result.fids, [7, 6, 5, 4, 3, 2, 1]);
      assert.equal(all.body.result.users.length, 7);
    });

    it("refuses out-of-range limits and tampered or foreign cursors with 400", async () => {
      await createChannel(api, "tampered");
      await createChannel(api, "foreign");
      await followSeven(api, "tampered");
      assert.deepEqual(await api.get("/v1/channel-followers?channelId=tampered&limit=0"), {
        status: 400,
        body: errorOf('query parameter "limit" must be >= 1'),
      });
      assert.deepEqual(await api.get("/v1/channel-followers?channelId=tampered&limit=101"), {
        status: 400,
        body: errorOf('query parameter "limit" must be <= 100'),
      });
      assert.deepEqual(await api.get("/v1/channel-followers?channelId=tampered&limit=ten"), {
        status: 400,
        body: errorOf('query parameter "limit" must be integer'),
      });
      const { body } = await api.get("/v1/channel-followers?channelId=tampered&limit=1");
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
        assert.deepEqual(await api.get(`/v1/channel-followers?channelId=tampered&cursor=${tampered}`), {
          status: 400,
          body: bad,
        });
      }
      assert.deepEqual(await api.get(`/v1/channel-followers?channelId=foreign&cursor=${cursor}`), {
        status: 400,
        body: bad,
      });
      assert.deepEqual(await api.get(`/v1/user-following-channels?fid=1&cursor=${cursor}`), {
        status: 400,
        body: bad,
      });
      assert.deepEqual(await api.get(`/v1/channel-followers?channelId=tampered&cursor=${"a".repeat(300)}`), {
        status: 400,
        body: errorOf('query parameter "cursor" must NOT have more than 256 characters'),
      });
    });

    it("lists a fid's channels newest follow first, each with followedAt", async () => {
      await createChannel(api, "earlier", { moderatorFids: [5, 6] });
      await createChannel(api, "later");
      await api.send("PUT", "/v1/admin/channels/earlier/followers/41", { followedAt: NOW - 900 });
      await api.send("PUT", "/v1/admin/channels/later/followers/41", { followedAt: NOW - 50 });
      const page = await api.get("/v1/user-following-channels?fid=41&limit=1");
      assert.equal(page.status, 200);
      assert.deepEqual(
        page.body.result.channels.map((c: { id: string; followedAt: number }) => [c.id, c.followedAt]),
        [["later", NOW - 50]],
      );
      assert.equal(page.body.result.channels[0].followerCount, 1);
      const rest = await api.get(`/v1/user-following-channels?fid=41&cursor=${page.body.next.cursor}`);
      assert.deepEqual(
        rest.body.result.channels.map((c: { id: string; followedAt: number }) => [c.id, c.followedAt]),
        [["earlier", NOW - 900]],
      );
      assert.equal(rest.body.next, undefined);
      assert.deepEqual(rest.body.result.channels[0].moderatorFids, [5, 6]);
      assert.deepEqual(await api.get("/v1/user-following-channels?fid=999"), {
        status: 200,
        body: { result: { channels: [] } },
      });
      assert.deepEqual(await api.get("/v1/user-following-channels?fid=-1"), {
        status: 400,
        body: errorOf('query parameter "fid" must be >= 1'),
      });
      assert.deepEqual(await api.get("/v1/user-following-channels?fid=abc"), {
        status: 400,
        body: errorOf('query parameter "fid" must be integer'),
      });
    });

    it("shows channel changes in followed-channel pages at once, also those made by another process", async () => {
      await createChannel(api, "room", { name: "Books & reading" });
      await api.send("PUT", "/v1/admin/channels/room/followers/51", { followedAt: NOW - 50 });
      const before = (await api.get("/v1/user-following-channels?fid=51")).body.result.channels;
      assert.equal(before[0].name, "Books & reading");
      await api.send("PATCH", "/v1/admin/channels/room", { name: "Reading room" });
      const renamed = (await api.get("/v1/user-following-channels?fid=51")).body.result.channels;
      assert.equal(renamed[0].name, "Reading room");
      const other = await api.harness.restart();
      await other.service.follows.follow("room", 77, NOW - 5);
      await other.service.channels.update("room", { description: "Lists and reviews" });
      const after = (await api.get("/v1/user-following-channels?fid=51")).body.result.channels;
      assert.equal(after[0].followerCount, 2);
      assert.equal(after[0].description, "Lists and reviews");
      await other.service.follows.unfollow("room", 77);
      assert.equal(
        (await api.get("/v1/user-following-channels?fid=51")).body.result.channels[0].followerCount,
        1,
      );
      await other.close();
    });

    it("writes follow pages byte for byte as their response schemas would, across a cursor", async () => {
      const text = async (path: string) => {
        const response = await fetch(`${api.harness.url}${path}`);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
        return response.text();
      };
      await createChannel(api, "quotes", {
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
      await createChannel(api, "tunes", {
        description: "Hi @alice and @bob",
        descriptionMentions: [7, 8],
        descriptionMentionsPositions: [3, 13],
        leadFid: 4,
        moderatorFid: 5,
        moderatorFids: [5, 6],
        memberCount: 12,
        createdAt: NOW - 1000,
      });
      await api.send("PUT", "/v1/admin/channels/quotes/followers/900", { followedAt: NOW - 20 });
      await api.send("PUT", "/v1/admin/channels/tunes/followers/900", { followedAt: NOW - 30 });
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
        `{"result":{"channels":[${followed(await channelText("tunes"), NOW - 30)}]}}`,
      );

      for (const fid of [901, 902, 903])
        await api.send("PUT", `/v1/admin/channels/quotes/followers/${fid}`, { followedAt: NOW - fid + 880 });
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
      await createChannel(api, "asked");
      await api.send("PUT", "/v1/admin/channels/asked/followers/1", { followedAt: NOW - 50 });
      assert.deepEqual(await api.get("/v1/user-channel?fid=1&channelId=asked"), {
        status: 200,
        body: { result: { following: true, followedAt: NOW - 50 } },
      });
      assert.deepEqual(await api.get("/v1/user-channel?fid=2&channelId=asked"), {
        status: 200,
        body: { result: { following: false } },
      });
    });

    it("unfollows, idempotently", async () => {
      await createChannel(api, "left");
      await api.send("PUT", "/v1/admin/channels/left/followers/1", { followedAt: NOW - 50 });
      assert.deepEqual((await api.send("DELETE", "/v1/admin/channels/left/followers/1")).body, {
        result: { following: false },
      });
      assert.deepEqual((await api.send("DELETE", "/v1/admin/channels/left/followers/1")).body, {
        result: { following: false },
      });
      assert.deepEqual(await api.get("/v1/user-channel?fid=1&channelId=left"), {
        status: 200,
        body: { result: { following: false } },
      });
    });

    it("keeps the first time of a follow made twice", async () => {
      await createChannel(api, "twice");
      await api.send("PUT", "/v1/admin/channels/twice/followers/2", { followedAt: NOW - 10 });
      assert.deepEqual(
        (await api.send("PUT", "/v1/admin/channels/twice/followers/2", { followedAt: NOW })).body,
        {
          result: { following: true, followedAt: NOW - 10 },
        },
      );
    });

    it("keeps followerCount exact through unfollows and repeated follows", async () => {
      await createChannel(api, "counted");
      await api.send("PUT", "/v1/admin/channels/counted/followers/1", { followedAt: NOW - 50 });
      await api.send("PUT", "/v1/admin/channels/counted/followers/2", { followedAt: NOW - 10 });
      await api.send("PUT", "/v1/admin/channels/counted/followers/2", { followedAt: NOW });
      await api.send("DELETE", "/v1/admin/channels/counted/followers/1");
      await api.send("DELETE", "/v1/admin/channels/counted/followers/1");
      assert.equal((await api.get("/v1/channel?channelId=counted")).body.result.channel.followerCount, 1);
    });

    it("answers a follow of an unknown channel with 404", async () => {
      assert.deepEqual(await api.send("PUT", "/v1/admin/channels/nope/followers/2", {}), {
        status: 404,
        body: errorOf('No channel found with id "nope"'),
      });
    });
  });
}
