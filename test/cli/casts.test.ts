/**
 * What a cast command refers to, as a user types it: the built command in a child process, from a
 * directory of its own with a clean environment, against `castnet start` in another process. The
 * feed lists the casts that stand.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type RunningCastnet, killCastnetProcesses, startCastnetProcess } from "../support/castnetProcess.js";
import { castnetFrom, json } from "./run.js";

interface Cast {
  fid: number;
  hash: string;
  castId: string;
}

describe("what the cast commands refer to", () => {
  let dir: string;
  let castnet: RunningCastnet;
  let env: NodeJS.ProcessEnv;
  let hubUrl: string;
  const run = (...args: string[]) => castnetFrom(join(dir, "user"), env, ...args);
  const hub = async <T>(path: string): Promise<T> => (await (await fetch(hubUrl + path)).json()) as T;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "castnet-casts-"));
    mkdirSync(join(dir, "user"));
    castnet = await startCastnetProcess(["--data-dir", join(dir, "stack"), "--block-time", "0"], {
      env: { CASTNET_LOG_LEVEL: "warn" },
    });
    hubUrl = castnet.urls.hub!;
    env = {
      CASTNET_DATA_DIR: join(dir, "cli"),
      CASTNET_HUB_URL: hubUrl,
      CASTNET_REGISTRY_URL: castnet.urls.registry,
      CASTNET_API_URL: castnet.urls["client API"],
      CASTNET_CHAIN_URL: castnet.urls.devchain,
    };
    json(await run("account", "create", "alice", "--json"));
    json(await run("account", "create", "bob", "--json"));
    assert.equal((await run("account", "use", "alice")).status, 0);
  });

  after(async () => {
    await castnet?.stop();
    killCastnetProcesses();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists only the casts that stand: a removal is not a cast", async () => {
    const kept = json<Cast>(await run("cast", "this one stays", "--json"));
    const gone = json<Cast>(await run("cast", "this one goes", "--json"));
    json(await run("cast", "remove", gone.hash, "--json"));
    // The hub lists the removal, newest, in the cast's place.
    const listed = await hub<{ messages: { data: { type: string } }[] }>("/v1/castsByFid?fid=1&reverse=true");
    assert.equal(listed.messages[0]!.data.type, "MESSAGE_TYPE_CAST_REMOVE");

    const newest = await run("feed", "alice", "--limit", "1", "--ids");
    assert.equal(newest.stdout, `${kept.castId}\n`);
    const feed = json<{ casts: { castId: string; text: string }[] }>(await run("feed", "alice", "--json"));
    assert.deepEqual(
      feed.casts.map((c) => [c.castId, c.text]),
      [[kept.castId, "this one stays"]],
    );
  });
});
