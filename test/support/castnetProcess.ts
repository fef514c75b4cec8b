/** `castnet start` as a child process, as a user runs it, until its banner says it runs. */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { CASTNET_MAIN, scratchDir, userEnv } from "./cli.js";
import { FREE_PORTS } from "./ports.js";

export interface RunningCastnet {
  /** The parts' URLs as the banner prints them, by its labels ("registry", "hub", "client API", "devchain"). */
  urls: Record<string, string>;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Stops it with SIGTERM, asserts a clean exit, and resolves to everything it printed. */
  stop(): Promise<string>;
}

const running = new Set<ChildProcess>();

/** Kills whatever a failed test left running, so that it cannot hold the test run open: call it in `after`. */
export function killCastnetProcesses(): void {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
  running.clear();
}

/**
 * `castnet start` with `args` (FREE_PORTS for free ports), in `cwd` (by default a folder of its
 * own), with `env` over a fresh shell's environment (support/cli.ts).
 */
export async function startCastnetProcess(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningCastnet> {
  const child: ChildProcess = spawn(process.execPath, [CASTNET_MAIN, "start", ...args], {
    cwd: options.cwd ?? scratchDir(),
    env: { ...userEnv(), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // After "close" every byte of the child's output has been read, and a death by signal is named.
  const exited = new Promise<number | string | null>((resolve) =>
    child.on("close", (code, signal) => resolve(code ?? signal)),
  );
  const deadline = Date.now() + 30_000;
  while (!output.includes("Press Ctrl+C") && Date.now() < deadline && child.exitCode === null)
    await new Promise((r) => setTimeout(r, 100));
  if (!output.includes("Press Ctrl+C")) child.kill("SIGKILL");
  assert.match(output, /Press Ctrl\+C/, output);
  const urls = Object.fromEntries(
    [...output.matchAll(/^\s+(registry|hub|client API|devchain)\s+(http:\/\/\S+)$/gm)].map((m) => [
      m[1]!,
      m[2]!,
    ]),
  );
  return {
    urls,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      assert.equal(await exited, 0, output);
      running.delete(child);
      return output;
    },
  };
}

/** A file's castnet: its process, a scratch directory, and the CASTNET_* variables that name it to the CLI. */
export interface FileCastnet {
  dir(): string;
  castnet(): RunningCastnet;
  /** The parts' URLs and a keystore of the tests' own (`<dir>/cli`), as the CLI reads them. */
  cliEnv(): NodeJS.ProcessEnv;
}

/**
 * `castnet start` in another process on free ports (block time 0) for the tests of one file,
 * started before them and stopped after them, with a scratch directory (`<dir>/stack` holds its data).
 */
export function castnetForFile(prefix: string): FileCastnet {
  let dir: string;
  let castnet: RunningCastnet;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    castnet = await startCastnetProcess(
      [...FREE_PORTS, "--data-dir", join(dir, "stack"), "--block-time", "0"],
      {
        env: { CASTNET_LOG_LEVEL: "warn" },
      },
    );
  });
  after(async () => {
    await castnet?.stop();
    killCastnetProcesses();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    castnet: () => castnet,
    cliEnv: () => ({
      CASTNET_DATA_DIR: join(dir, "cli"),
      CASTNET_HUB_URL: castnet.urls.hub,
      CASTNET_REGISTRY_URL: castnet.urls.registry,
      CASTNET_API_URL: castnet.urls["client API"],
      CASTNET_CHAIN_URL: castnet.urls.devchain,
    }),
  };
}
