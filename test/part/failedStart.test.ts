/**
 * The part skeleton (src/part/): a part that fails half-way through its start closes what it had
 * opened, in reverse. Each failure runs in a child process, which must then exit by itself (no
 * block timer, worker thread or socket left to keep it alive) and leave no SQLite WAL file open.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";

const FIXTURE = new URL("fixtures/failingStart.ts", import.meta.url).pathname;
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Runs the fixture for `part` in a child; resolves once the child has exited (killed after 20 s). */
function runChild(part: string, dir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, part, dir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      resolve({ code: code ?? (signal === "SIGKILL" ? -9 : null), output });
    }),
  );
}

async function assertCleanFailure(part: string, refusal: RegExp) {
  const dir = mkdtempSync(join(tmpdir(), "castnet-failed-start-"));
  dirs.push(dir);
  const { code, output } = await runChild(part, dir);
  assert.match(output, refusal);
  assert.equal(code, 0, `the process exits by itself (killed after 20 s): ${output}`);
  assert.ok(existsSync(join(dir, "part.sqlite")), "the part had opened its database");
  assert.deepEqual(
    readdirSync(dir).filter((name) => name.endsWith("-wal") || name.endsWith("-shm")),
    [],
    "every database was closed",
  );
}

describe("a part whose start fails", () => {
  it("the devchain: closes its database and stops its block timer", async () => {
    await assertCleanFailure("devchain", /^refused: trusted origin not an origin is not an origin like/m);
  });

  it("the hub: closes its database, its verifier threads and its followers", async () => {
    await assertCleanFailure("hub", /^refused: .*PEM routines::no start line/m);
  });
});
