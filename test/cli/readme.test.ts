/**
 * The README's first tour, run as written: each `npm run castnet -- …` line of its sh block, through
 * npm and the built command, against a stack started as the tour says (`--seed demo`), in a fresh
 * shell. The data directory comes from CASTNET_DATA_DIR, and the ports from the run file of the
 * stack running there, as every command finds them: the lines run unedited. Then the sign-in that
 * follows the tour, whole, with its curl lines sent to the test stack's client API instead of the
 * default port.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { seedOnStart } from "../../src/cli/seedOnStart.js";
import { createLogger } from "../../src/http/index.js";
// `npm run castnet` runs dist/, as after `npm start`; importing this builds it when this file runs alone.
import { userEnv } from "../support/cli.js";
import { FREE_PORTS } from "../support/ports.js";

const ROOT = join(import.meta.dirname, "../..");

/** The commands of the first sh block under "A first tour". */
function tourCommands(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const tour = readme.slice(readme.indexOf("## A first tour"));
  const block = /```sh\n([\s\S]*?)```/.exec(tour)![1]!;
  return block.split("\n").filter((line) => /^(\w+=\$\()?npm run (-s )?castnet -- /.test(line));
}

/** The sh block after "Signing a user in", for the client API at `api` (host:port). */
function signInBlock(api: string): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("Signing a user in"));
  return /```sh\n([\s\S]*?)```/.exec(section)![1]!.replaceAll("localhost:2282", api);
}

describe("the README's first tour", () => {
  let dir: string;
  let stack: RunningStack;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "castnet-readme-"));
    const config = parseStartOptions(["--data-dir", dir, "--seed", "demo", ...FREE_PORTS], {});
    stack = await startStack(config, createLogger("silent"), {
      afterListen: seedOnStart(config, { update() {}, finish() {} }),
    });
  });

  after(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs every castnet command of the tour as written, each exiting 0", async () => {
    const commands = tourCommands();
    assert.equal(commands.length, 14);
    // One shell, so that a line may use what an earlier one set; each line's success is marked.
    const api = new URL(stack.urls.api!).host;
    const script = [
      "set -e",
      ...commands.flatMap((line, i) => [line, `echo "::ran ${i}"`]),
      signInBlock(api),
      // curl's answer ends without a newline.
      'echo; echo "::signed in"',
    ].join("\n");
    const child = spawn("sh", ["-c", script], {
      cwd: ROOT,
      env: { ...userEnv(), npm_config_update_notifier: "false", CASTNET_DATA_DIR: dir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const ran = [...stdout.matchAll(/^::ran (\d+)$/gm)].map((m) => Number(m[1]));
    assert.deepEqual(
      ran,
      commands.map((_, i) => i),
      `stopped after: ${commands[ran.length]}\n${stderr}`,
    );
    assert.equal(status, 0, stderr);
    assert.match(stdout, /^::signed in$/m);
    // The app's read of the completed channel: alice (fid 13) signed the message by her custody key.
    const completed = JSON.parse(/^\{"state":"completed".*$/m.exec(stdout)![0]) as Record<string, unknown>;
    assert.equal(completed.fid, 13);
    assert.equal(completed.authMethod, "custody");
    assert.equal(completed.username, "alice");
    assert.match(
      String(completed.message),
      /^example\.com wants you to sign in with your Ethereum account:\n/,
    );
    // alice and bob come after the demo's twelve accounts; people are named as the hub knows them.
    assert.match(stdout, /^casts of Ana Ruiz @ana \(fid 1\), newest first$/m);
    assert.match(
      stdout,
      /^fid 14 reacted like on 13:0x[0-9a-f]{40} by @alice \(fid 13\) \(message 0x[0-9a-f]{40}\)$/m,
    );
    assert.match(stdout, /^@alice \(fid 13\) follows Ana Ruiz @ana \(fid 1\) \(message 0x[0-9a-f]{40}\)$/m);
    assert.match(stdout, /^Alice @alice \(fid 13\)\n {2}display {3}Alice\n/m);
  });
});
