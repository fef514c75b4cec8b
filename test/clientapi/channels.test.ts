/** Channels (docs/clientapi.md): the operator's writes and the public channel reads. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testEngines } from "../support/databases.js";
import { NOW, errorOf, sharedApi, withApi } from "./support.js";

const basic = (id: string) => ({
  id,
  url: `https://demo.example/channel/${id}`,
  name: id,
  imageUrl: `https://demo.example/${id}.png`,
});

for (const engine of await testEngines()) {
  describe(`channels on ${engine.engine}`, { skip: engine.skip }, () => {
    const api = sharedApi(engine);

    it("starts with no channels", async () => {
      await withApi(engine, async (empty) => {
        assert.deepEqual(await empty.get("/v2/all-channels"), {
          status: 200,
          body: { result: { channels: [] } },
        });
      });
    });

    it("creates a channel with every field and serves it in the reference's key order", async () => {
      const created = await api.send("POST", "/v1/admin/channels", {
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
      const read = await api.get("/v1/channel?channelId=music");
      assert.deepEqual(read, { status: 200, body: { result: { channel } } });
      assert.deepEqual(Object.keys(read.body.result.channel), Object.keys(channel));
    });

    it("leaves out optional fields that have no value", async () => {
      const created = await api.send("POST", "/v1/admin/channels", {
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
      await withApi(engine, async (own) => {
        assert.equal((await own.send("POST", "/v1/admin/channels", basic("newer"))).status, 201);
        const older = { ...basic("older"), createdAt: NOW - 1000 };
        assert.equal((await own.send("POST", "/v1/admin/channels", older)).status, 201);
        const { body } = await own.get("/v2/all-channels");
        assert.deepEqual(
          body.result.channels.map((c: { id: string }) => c.id),
          ["older", "newer"],
        );
      });
    });

    it("updates given fields, removes fields set to null, keeps the id", async () => {
      assert.equal((await api.send("POST", "/v1/admin/channels", basic("reading"))).status, 201);
      const updated = await api.send("PATCH", "/v1/admin/channels/reading", {
        name: "Books & reading",
        description: "Reading lists",
        leadFid: 9,
      });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.result.channel.name, "Books & reading");
      assert.equal(updated.body.result.channel.leadFid, 9);
      const cleared = await api.send("PATCH", "/v1/admin/channels/reading", {
        leadFid: null,
        description: null,
      });
      assert.equal(cleared.body.result.channel.leadFid, undefined);
      assert.equal(cleared.body.result.channel.description, undefined);
      const renamed = await api.send("PATCH", "/v1/admin/channels/reading", { id: "novels" });
      assert.deepEqual(renamed, { status: 400, body: errorOf('field "id" is not allowed') });
    });

    it("refuses bad channels with a clear 4xx and writes nothing", async () => {
      assert.equal((await api.send("POST", "/v1/admin/channels", basic("taken"))).status, 201);
      const before = (await api.get("/v2/all-channels")).body.result.channels;
      const base = { url: "https://demo.example/x", name: "X", imageUrl: "https://demo.example/x.png" };
      assert.deepEqual(
        await api.send("POST", "/v1/admin/channels", { ...base, id: "taken", url: "https://demo.example/y" }),
        {
          status: 409,
          body: errorOf('a channel with id "taken" already exists'),
        },
      );
      assert.deepEqual(
        await api.send("POST", "/v1/admin/channels", {
          ...base,
          id: "other",
          url: "https://demo.example/channel/taken",
        }),
        {
          status: 409,
          body: errorOf('channel "taken" already uses the url https://demo.example/channel/taken'),
        },
      );
      assert.equal((await api.send("POST", "/v1/admin/channels", { ...base, id: "Bad Id" })).status, 400);
      assert.deepEqual(await api.send("POST", "/v1/admin/channels", { ...base, id: "x", url: "ftp://x" }), {
        status: 400,
        body: errorOf("url must be an https, http or chain:// URL (the parent URL of the channel's casts)"),
      });
      assert.deepEqual(await api.send("POST", "/v1/admin/channels", { ...base, id: "x", leadFid: "4" }), {
        status: 400,
        body: errorOf('field "leadFid" must be integer'),
      });
      assert.equal(
        (
          await api.send("POST", "/v1/admin/channels", {
            ...base,
            id: "x",
            description: "a",
            descriptionMentions: [1],
          })
        ).status,
        400,
      );
      assert.deepEqual(await api.send("PATCH", "/v1/admin/channels/nope", { name: "N" }), {
        status: 404,
        body: errorOf('No channel found with id "nope"'),
      });
      assert.deepEqual((await api.get("/v2/all-channels")).body.result.channels, before);
    });

    it("answers a missing channelId with 400", async () => {
      assert.deepEqual(await api.get("/v1/channel"), {
        status: 400,
        body: errorOf('query parameter "channelId" is required'),
      });
    });

    it("answers an unknown channel with 404 on every channel read", async () => {
      assert.deepEqual(await api.get("/v1/channel?channelId=nope"), {
        status: 404,
        body: errorOf('No channel found with id "nope"'),
      });
      assert.deepEqual(await api.get("/v1/channel-followers?channelId=nope"), {
        status: 404,
        body: errorOf('No channel found with id "nope"'),
      });
      assert.deepEqual(await api.get("/v1/user-channel?fid=1&channelId=nope"), {
        status: 404,
        body: errorOf('No channel found with id "nope"'),
      });
    });
  });
}
