/**
 * `castnet start` off a terminal shows the long work of a start as plain lines on stderr: the
 * migrations a data directory needs, and the hub's catch-up when its database is behind the chain.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { FREE_PORTS } from "../support/ports.js";
import { CASTNET_MAIN } from "../support/cli.js";
import { NEW_DATA_DIR_MIGRATIONS, errorLines } from "./run.js";

interface Started {
  chainUrl: string;
  /** Sends SIGTERM, waits for the exit, and resolves to stderr's lines (Node's warnings left out). */
  stop(): Promise<string[]>;
}

/** Starts castnet on `dataDir` and waits until it is running and stderr holds `awaited`, if given. */
async function start(dataDir: string, awaited?: string): Promise<Started> {
  const child = spawn(
    process.execPath,
    [CASTNET_MAIN, "start", "--data-dir", dataDir, ...FREE_PORTS, "--block-time", "0"],
    { env: { ...process.env, CASTNET_LOG_LEVEL: "silent" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const deadline = Date.now() + 30_000;
  while (!(stdout.includes("Press Ctrl+C") && stderr.includes(awaited ?? "")) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  const chainUrl = /^\s+devchain\s+(http:\/\/\S+)$/m.exec(stdout)?.[1];
  if (chainUrl === undefined) {
    child.kill("SIGKILL");
    throw new Error(`castnet did not start: ${stderr}`);
  }
  return {
    chainUrl,
    async stop() {
      child.kill("SIGTERM");
      assert.equal(await exited, 0);
      return errorLines({ status: 0, stdout, stderr });
    },
  };
}

describe("castnet start off a terminal", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "castnet-progress-"));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("prints the migrations a new data directory needs, then nothing once it is current", async () => {
    const fresh = await start(dataDir);
    // A block with an event, for the hub to catch up with below.
    const registered = await fetch(`${fresh.chainUrl}/v1/fids`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ custody: "0x000000000000000000000000000000000000dEaD" }),
    });
    assert.equal(registered.status, 200);
    assert.deepEqual(await fresh.stop(), NEW_DATA_DIR_MIGRATIONS);

    const current = await start(dataDir);
    assert.deepEqual(await current.stop(), []);
  });

  it("prints the hub's catch-up when its database is behind the chain", async () => {
    for (const file of ["hub.sqlite", "hub.sqlite-wal", "hub.sqlite-shm"])
      rmSync(join(dataDir, file), { force: true });
    const behind = await start(dataDir, "hub caught up");
    assert.deepEqual(await behind.stop(), [
      "migrations: hub 0 of 4",
      "migrations: hub 1 of 4",
      "migrations: hub 2 of 4",
      "migrations: hub 3 of 4",
      "migrations: hub: 4 applied",
      "hub caught up with the chain at block 1",
    ]);
  });
});
