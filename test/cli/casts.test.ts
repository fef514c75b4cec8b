/**
 * What a cast command refers to, as a user types it: the built command in a child process, from a
 * directory of its own with a clean environment, against `castnet start` in another process. The
 * feed lists the casts that stand, `cast remove` takes what `feed --ids` prints, `--channel` takes a
 * channel's id, and a cast that is not there is said to be not there.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { castnetForFile } from "../support/castnetProcess.js";
import { castnetIn, errorLines, json } from "./run.js";

const HASH = /^0x[0-9a-f]{40}$/;
/** A hash no cast has. */
const NO_CAST = `0x${"ab".repeat(20)}`;

interface Cast {
  fid: number;
  hash: string;
  castId: string;
}

describe("what the cast commands refer to", () => {
  const file = castnetForFile("castnet-casts-");
  let env: NodeJS.ProcessEnv;
  let hubUrl: string;
  const run = (...args: string[]) => castnetIn(join(file.dir(), "user"), env, ...args);
  const hub = async <T>(path: string): Promise<T> => (await (await fetch(hubUrl + path)).json()) as T;

  before(async () => {
    mkdirSync(join(file.dir(), "user"));
    hubUrl = file.castnet().urls.hub!;
    env = file.cliEnv();
    json(await run("account", "create", "alice", "--json"));
    json(await run("account", "create", "bob", "--json"));
    assert.equal((await run("account", "use", "alice")).status, 0);
  });

  it("lists only the casts that stand: a removal is not a cast", async () => {
    const kept = json<Cast>(await run("cast", "this one stays", "--json"));
    const gone = json<Cast>(await run("cast", "this one goes", "--json"));
    // Message times are whole seconds: a second later, the removal is the newest message.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    json(await run("cast", "remove", gone.hash, "--json"));
    // The hub lists the removal in the cast's place.
    const listed = await hub<{ messages: { data: { type: string } }[] }>("/v1/castsByFid?fid=1");
    assert.deepEqual(listed.messages.map((m) => m.data.type).sort(), [
      "MESSAGE_TYPE_CAST_ADD",
      "MESSAGE_TYPE_CAST_REMOVE",
    ]);

    const newest = await run("feed", "alice", "--limit", "1", "--ids");
    assert.equal(newest.stdout, `${kept.castId}\n`);
    const feed = json<{ casts: { castId: string; text: string }[] }>(await run("feed", "alice", "--json"));
    assert.deepEqual(
      feed.casts.map((c) => [c.castId, c.text]),
      [[kept.castId, "this one stays"]],
    );
  });

  it("removes a cast given as feed --ids prints it, and refuses another user's", async () => {
    const cast = json<Cast>(await run("cast", "to be removed by its id", "--json"));
    const ids = (await run("feed", "alice", "--ids")).stdout.trim().split("\n");
    assert.ok(ids.includes(cast.castId));
    const removed = json(await run("cast", "remove", cast.castId, "--json"));
    assert.deepEqual(removed, { fid: 1, removed: cast.hash, hash: removed.hash });
    assert.match(String(removed.hash), HASH);

    const bobs = json<Cast>(await run("cast", "bob's own", "--as", "bob", "--json"));
    const notMine = await run("cast", "remove", bobs.castId);
    assert.equal(notMine.status, 1);
    assert.equal(notMine.stdout, "");
    assert.deepEqual(errorLines(notMine), [
      `castnet: cast ${bobs.castId} is fid 2's: alice (fid 1) removes only its own casts`,
    ]);
  });

  it("says there is no such cast, and does nothing, when a cast to react to or remove is not there", async () => {
    const like = await run("react", "like", `2:${NO_CAST}`);
    assert.equal(like.status, 1);
    assert.equal(like.stdout, "");
    assert.deepEqual(errorLines(like), [
      `castnet: there is no cast 2:${NO_CAST} (castnet feed 2 --ids lists that fid's casts)`,
    ]);
    const reactions = await hub<{ messages: unknown[] }>("/v1/reactionsByFid?fid=1");
    assert.deepEqual(reactions.messages, []);

    // bob's cast by its hash alone: alice has no cast of that hash.
    const bobs = json<Cast>(await run("cast", "bob again", "--as", "bob", "--json"));
    const before = await hub<{ messages: unknown[] }>("/v1/castsByFid?fid=1");
    const notMine = await run("cast", "remove", bobs.hash);
    assert.equal(notMine.status, 1);
    assert.equal(notMine.stdout, "");
    assert.deepEqual(errorLines(notMine), [
      `castnet: alice (fid 1) has no cast ${bobs.hash}: it was removed already, never cast, or is another user's`,
    ]);
    // No tombstone was left in alice's casts.
    assert.deepEqual(await hub<{ messages: unknown[] }>("/v1/castsByFid?fid=1"), before);
    assert.ok(await hub<{ hash: string }>(`/v1/castById?fid=2&hash=${bobs.hash}`));
  });

  it("casts into a channel named by its id or its URL, and refuses anything else", async () => {
    const created = json<{ url: string }>(await run("channel", "create", "dev", "--json"));
    const byId = json<Cast>(await run("cast", "into dev by its id", "--channel", "dev", "--json"));
    const byUrl = json<Cast>(
      await run("cast", "into a page", "--channel", "https://example.com/page", "--json"),
    );
    const parentOf = async (cast: Cast) =>
      (
        await hub<{ data: { castAddBody: { parentUrl?: string } } }>(
          `/v1/castById?fid=${cast.fid}&hash=${cast.hash}`,
        )
      ).data.castAddBody.parentUrl;
    assert.equal(await parentOf(byId), created.url);
    assert.equal(await parentOf(byUrl), "https://example.com/page");

    const unknown = await run("cast", "lost", "--channel", "nowhere");
    assert.equal(unknown.status, 1);
    assert.equal(unknown.stdout, "");
    assert.deepEqual(errorLines(unknown), [
      `castnet: the client API at ${env.CASTNET_API_URL} has no channel "nowhere": castnet channel list shows them, or give the channel's URL`,
    ]);
    const neither = await run("cast", "lost", "--channel", "not a channel");
    assert.equal(neither.status, 2);
    assert.deepEqual(errorLines(neither), [
      'castnet: --channel "not a channel" is neither a channel id (as castnet channel list shows them) nor a URL (https://…, chain://…)',
    ]);
    const feed = json<{ casts: { text: string }[] }>(await run("feed", "alice", "--json"));
    assert.ok(!feed.casts.some((c) => c.text === "lost"));
  });
});
