/**
 * A signed key request from start to use, as a user runs it: the built command in a child process,
 * from a directory of its own with a clean environment, against `castnet start` in another process.
 * `key-request create` prints the next commands in the form that works where it ran (through
 * `npm run castnet --` too), and once the request completes `--as <token>` signs with its key.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { castnetForFile } from "../support/castnetProcess.js";
import { castnetIn, cleanEnvironment, errorLines, json, runCommand } from "./run.js";

const ROOT = join(import.meta.dirname, "../..");

describe("a requested key, from the request to casting with it", () => {
  const file = castnetForFile("castnet-requested-");
  let env: NodeJS.ProcessEnv;
  let hubUrl: string;
  const user = () => join(file.dir(), "user");
  const run = (...args: string[]) => castnetIn(user(), env, ...args);
  const hub = async <T>(path: string): Promise<T> => (await (await fetch(hubUrl + path)).json()) as T;

  before(async () => {
    mkdirSync(user());
    hubUrl = file.castnet().urls.hub!;
    env = file.cliEnv();
    json(await run("account", "create", "alice", "--json"));
    json(await run("account", "create", "app", "--json"));
  });

  it("prints the next commands as castnet … when run as castnet", async () => {
    const created = await run("key-request", "create", "--app", "app");
    assert.equal(created.status, 0, created.stderr);
    const token = /^key request (0x[0-9a-f]+) /m.exec(created.stdout)![1]!;
    const next = created.stdout.split("\n").filter((line) => line.includes(token) && line.includes(": "));
    assert.deepEqual(next.slice(-2), [
      `approve it as a user: castnet key-request approve ${token} --as <account>`,
      `once it is completed, the app signs with its key for that user: castnet cast "…" --as ${token}`,
    ]);
  });

  it("prints them as npm run castnet -- … when run through npm run castnet --", async () => {
    // As the README's tour runs it: npm runs the repository's castnet script, from the repository.
    const created = await runCommand(
      "npm",
      ["run", "-s", "castnet", "--", "key-request", "create", "--app", "app"],
      {
        cwd: ROOT,
        env: cleanEnvironment(user(), { ...env, npm_config_update_notifier: "false" }),
      },
    );
    assert.equal(created.status, 0, created.stderr);
    const token = /^key request (0x[0-9a-f]+) /m.exec(created.stdout)![1]!;
    assert.match(
      created.stdout,
      new RegExp(
        `^approve it as a user: npm run castnet -- key-request approve ${token} --as <account>$`,
        "m",
      ),
    );
    assert.match(
      created.stdout,
      new RegExp(
        `^once it is completed, the app signs with its key for that user: npm run castnet -- cast "…" --as ${token}$`,
        "m",
      ),
    );
  });

  it("signs as the app for the user with --as <token> once the request is completed, and not before", async () => {
    const created = json<{ token: string; key: string }>(
      await run("key-request", "create", "--app", "app", "--json"),
    );
    const early = await run("cast", "too early", "--as", created.token);
    assert.equal(early.status, 1);
    assert.equal(early.stdout, "");
    assert.deepEqual(errorLines(early), [
      `castnet: key request ${created.token} is pending: its key signs once a user approved it and the devchain added it (castnet key-request show ${created.token})`,
    ]);

    json(await run("key-request", "approve", created.token, "--as", "alice", "--json"));
    const deadline = Date.now() + 20_000;
    const signers = async () =>
      (await hub<{ events: { signerEventBody: { key: string } }[] }>("/v1/onChainSignersByFid?fid=1")).events;
    while (!(await signers()).some((e) => e.signerEventBody.key === created.key) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));

    const cast = json<{ fid: number; hash: string }>(
      await run("cast", "posted by the app for alice", "--as", created.token, "--json"),
    );
    assert.equal(cast.fid, 1);
    const stored = await hub<{ signer: string; data: { fid: number } }>(
      `/v1/castById?fid=1&hash=${cast.hash}`,
    );
    assert.equal(stored.signer, created.key);
    const profile = json<{ fid: number }>(
      await run("profile", "set", "--bio", "set by the app", "--as", created.token, "--json"),
    );
    assert.equal(profile.fid, 1);

    // A requested key has no custody key: what needs one says so.
    const name = await run("name", "register", "alice", "--as", created.token);
    assert.equal(name.status, 2);
    assert.deepEqual(errorLines(name), [
      `castnet: "${created.token}" is a key request's token: its key signs messages (cast, react, follow, profile set, verify address) for the user who approved it, but this command needs an account of the keystore`,
    ]);
  });
});
