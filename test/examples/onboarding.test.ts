/**
 * The README's onboarding (examples/onboarding) run as the README says, against `castnet start` in
 * another process: viem and @farcaster/core talking to the devchain's JSON-RPC with only the RPC URL
 * changed. Offline, the README's `npm install` is left out: the example sits inside the repository,
 * so its imports and tsx resolve from the root's node_modules.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cleanEnvironment, runCommand } from "../cli/run.js";
import { castnetForFile } from "../support/castnetProcess.js";
import { block, readmeFrom, ROOT, shownLine } from "./support.js";

const EXAMPLE = join(ROOT, "examples/onboarding");
const readmeExample = () => readmeFrom("**On chain, as on OP mainnet.**");

describe("the README's onboarding, examples/onboarding", () => {
  const stack = castnetForFile("castnet-onboarding-");

  it("links main.ts, a project of its own: ESM, its dependencies, one run command", () => {
    assert.match(readmeExample(), /\[examples\/onboarding\]\(examples\/onboarding\/main\.ts\)/);
    const manifest = JSON.parse(readFileSync(join(EXAMPLE, "package.json"), "utf8")) as {
      type: string;
      scripts: Record<string, string>;
    };
    assert.equal(manifest.type, "module");
    assert.deepEqual(Object.keys(manifest.scripts), ["start"]);
  });

  it("runs as the README says and prints what it shows; the hub then holds the user's key", async () => {
    const line = block(readmeExample(), "sh").trim().replace("npm install && ", "");
    const ran = await runCommand("sh", ["-c", `set -e\n${line}`], {
      cwd: ROOT,
      env: cleanEnvironment(stack.dir(), {
        RPC_URL: stack.castnet().urls.devchain!,
        npm_config_update_notifier: "false",
      }),
    });
    assert.equal(ran.status, 0, ran.stdout + ran.stderr);
    const shown = block(readmeExample(), "text").trimEnd().split("\n");
    const printed = ran.stdout.trimEnd().split("\n").slice(-shown.length);
    shown.forEach((shownText, i) => assert.match(printed[i]!, shownLine(shownText)));

    const userFid = /^user fid (\d+):/m.exec(ran.stdout)![1];
    const deadline = Date.now() + 10_000;
    let signers: unknown[] = [];
    while (signers.length === 0 && Date.now() < deadline) {
      const answer = await fetch(`${stack.castnet().urls.hub}/v1/onChainSignersByFid?fid=${userFid}`);
      signers = ((await answer.json()) as { events?: unknown[] }).events ?? [];
      if (signers.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(signers.length, 1);
  });
});
