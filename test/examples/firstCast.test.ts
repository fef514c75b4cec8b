/**
 * The README's program (examples/first-cast) run as the README says, against `castnet start` in
 * another process: the README's sh lines from the repository with a clean environment, the parts'
 * URLs given through the variables the CLI and the example read. The README shows the example's
 * code as it is in main.ts and the lines it prints.
 *
 * Offline, the README's `npm install` in the example is left out: the example sits inside the
 * repository, so Node resolves its imports (@farcaster/core, viem) by walking up to the
 * repository's node_modules, and `npm start` finds tsx there because npm puts the node_modules/.bin
 * of the example and of every folder above it on the PATH. The root has each of these packages
 * (viem a dependency, @farcaster/core and tsx dev dependencies); a user's `npm install` in the
 * example gives it copies of its own instead.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cleanEnvironment, runCommand } from "../cli/run.js";
import { castnetForFile } from "../support/castnetProcess.js";
import { block, readmeFrom, ROOT, shownLine } from "./support.js";

const EXAMPLE = join(ROOT, "examples/first-cast");

const readmeExample = () => readmeFrom("The same, as a program");

describe("the README's program, examples/first-cast", () => {
  const stack = castnetForFile("castnet-example-");

  it("shows main.ts as it is", () => {
    assert.equal(block(readmeExample(), "ts"), readFileSync(join(EXAMPLE, "main.ts"), "utf8"));
  });

  it("is a project of its own: ESM, its dependencies, one run command", () => {
    const manifest = JSON.parse(readFileSync(join(EXAMPLE, "package.json"), "utf8")) as {
      type: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    assert.equal(manifest.type, "module");
    assert.deepEqual(Object.keys(manifest.scripts), ["start"]);
    assert.deepEqual(Object.keys(manifest.dependencies).sort(), ["@farcaster/core", "tsx", "viem"]);
  });

  it("runs as the README says and prints what it shows, the cast then at the hub", async () => {
    const lines = block(readmeExample(), "sh").split("\n").filter(Boolean);
    assert.equal(lines.length, 3);
    const script = ["set -e", ...lines.map((line) => line.replace("npm install && ", ""))].join("\n");
    const hub = stack.castnet().urls.hub!;
    const ran = await runCommand("sh", ["-c", script], {
      cwd: ROOT,
      env: cleanEnvironment(stack.dir(), { ...stack.cliEnv(), npm_config_update_notifier: "false" }),
    });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    // After npm's own lines (the account created, the script it runs), the example's.
    const shown = block(readmeExample(), "text").trimEnd().split("\n");
    const printed = ran.stdout.trimEnd().split("\n").slice(-shown.length);
    shown.forEach((line, i) => assert.match(printed[i]!, shownLine(line)));

    const castId = /^hub: cast (\d+):(0x[0-9a-f]{40})$/m.exec(ran.stdout)!;
    const cast = (await (await fetch(`${hub}/v1/castById?fid=${castId[1]}&hash=${castId[2]}`)).json()) as {
      data: { castAddBody: { text: string } };
    };
    assert.equal(cast.data.castAddBody.text, "hello castnet");
    const proof = (await (await fetch(`${hub}/v1/userNameProofByName?name=carol`)).json()) as { fid: number };
    assert.equal(String(proof.fid), castId[1]);
  });
});
