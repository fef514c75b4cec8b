/**
 * Finding 10: secrets in world-readable files. `castnet start` as a user runs it (a real process),
 * then the modes of what it left on disk, and the admin token given through a file instead of the
 * command line, where any local user reads it from `ps`.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { CASTNET_MAIN } from "../support/cli.js";
import { type RunningCastnet, killCastnetProcesses, startCastnetProcess } from "../support/castnetProcess.js";
import { FREE_PORTS } from "../support/ports.js";

const TOKEN = "s3cret-admin-token-0123456789abcdef";

/** `castnet start` with the info log (the notices are checked) and no admin token from the environment. */
const start = (args: string[], env: Record<string, string> = {}): Promise<RunningCastnet> =>
  startCastnetProcess(["--block-time", "0", ...FREE_PORTS, ...args], {
    env: { CASTNET_LOG_LEVEL: "info", CASTNET_ADMIN_TOKEN: "", ...env },
  });

/** A start that is refused before anything runs. */
function castnetStart(args: string[]) {
  return spawnSync(process.execPath, [CASTNET_MAIN, "start", ...FREE_PORTS, ...args], {
    encoding: "utf8",
    env: { ...process.env, CASTNET_LOG_LEVEL: "silent", CASTNET_ADMIN_TOKEN: "" },
  });
}

const mode = (path: string) => statSync(path).mode & 0o777;

function modes(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, mode(join(dir, name)).toString(8)]));
}

function grantBadge(apiUrl: string, headers: Record<string, string> = {}) {
  return fetch(`${apiUrl}/v1/admin/power-badges/77`, {
    method: "PUT",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ badge: "grant" }),
  });
}

describe("secrets at rest and in the process table", () => {
  const dirs: string[] = [];
  after(() => {
    killCastnetProcesses();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), "castnet-secrets-"));
    dirs.push(dir);
    return dir;
  };

  it("makes a fresh data directory 0700 and every database file in it 0600", async () => {
    const dataDir = join(scratch(), "data");
    const running = await start(["--data-dir", dataDir]);
    // While it runs, SQLite's -wal and -shm files are there too: SQLite gives them the main file's mode.
    const files = modes(dataDir);
    await running.stop();
    assert.equal(mode(dataDir).toString(8), "700");
    assert.ok(files["hub.sqlite-wal"] && files["registry.sqlite-shm"], JSON.stringify(files));
    for (const [name, bits] of Object.entries(files)) assert.equal(bits, "600", `${name} is ${bits}`);
  });

  it("tightens an existing 0755 directory and 0644 files at start, says so once, and logs no secret", async () => {
    const dataDir = join(scratch(), "data");
    await (await start(["--data-dir", dataDir])).stop();
    chmodSync(dataDir, 0o755);
    for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), 0o644);

    const running = await start(["--data-dir", dataDir], { CASTNET_ADMIN_TOKEN: TOKEN });
    assert.equal(mode(dataDir).toString(8), "700");
    for (const [name, bits] of Object.entries(modes(dataDir)))
      assert.equal(bits, "600", `${name} is ${bits}`);
    const output = await running.stop();
    const notices = output.split("\n").filter((line) => line.includes("permissions"));
    assert.equal(notices.length, 1, output);
    const notice = JSON.parse(notices[0]!) as { level: number; msg: string; paths: string[] };
    assert.equal(notice.level, 30);
    assert.equal(
      notice.msg,
      "tightened the permissions of the data directory so that only its owner reads it",
    );
    assert.ok(notice.paths.includes(dataDir) && notice.paths.includes(join(dataDir, "registry.sqlite")));

    const registry = new SQLite(join(dataDir, "registry.sqlite"), { readonly: true });
    const key = registry
      .prepare("select value from registry_settings where key = 'server_private_key'")
      .get() as { value: string };
    registry.close();
    assert.match(key.value, /^0x[0-9a-f]{64}$/);
    assert.ok(!output.includes(key.value.slice(2)), "the registry's private key is in the output");
    assert.ok(!output.includes(TOKEN), "the admin token is in the output");
  });

  it("takes the admin token from --admin-token-file and from CASTNET_ADMIN_TOKEN_FILE", async () => {
    const dir = scratch();
    const tokenFile = join(dir, "admin-token");
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    const dataDir = join(dir, "data");
    mkdirSync(dataDir);

    for (const how of [["--admin-token-file", tokenFile], []]) {
      const env: Record<string, string> = how.length === 0 ? { CASTNET_ADMIN_TOKEN_FILE: tokenFile } : {};
      const running = await start(["--data-dir", dataDir, ...how], env);
      const api = running.urls["client API"]!;
      const refused = await grantBadge(api);
      assert.equal(refused.status, 401);
      assert.deepEqual(await refused.json(), {
        errors: [{ message: "this operator endpoint needs the admin token as a Bearer token" }],
      });
      assert.equal((await grantBadge(api, { authorization: `Bearer ${TOKEN}` })).status, 200);
      const output = await running.stop();
      assert.ok(!output.includes("readable by"), output);
      assert.ok(!output.includes(TOKEN));
    }
  });

  it("warns when the admin token file is readable by others, and refuses both a token and a file", async () => {
    const dir = scratch();
    const tokenFile = join(dir, "admin-token");
    writeFileSync(tokenFile, TOKEN);
    chmodSync(tokenFile, 0o644);
    const running = await start(["--data-dir", join(dir, "data"), "--admin-token-file", tokenFile]);
    assert.equal(
      (await grantBadge(running.urls["client API"]!, { authorization: `Bearer ${TOKEN}` })).status,
      200,
    );
    const output = await running.stop();
    const warning = output.split("\n").find((line) => line.includes("admin token file"));
    assert.ok(warning, output);
    const parsed = JSON.parse(warning) as { level: number; msg: string };
    assert.equal(parsed.level, 40);
    assert.equal(
      parsed.msg,
      `the admin token file ${tokenFile} is readable by other users (mode 644); chmod 600 it`,
    );

    const both = castnetStart(["--admin-token", TOKEN, "--admin-token-file", tokenFile]);
    assert.equal(both.status, 2);
    assert.equal(both.stderr.trim(), "castnet: give the admin token either directly or as a file, not both");
    const missing = castnetStart(["--admin-token-file", join(dir, "nowhere")]);
    assert.equal(missing.status, 2);
    assert.equal(
      missing.stderr.trim(),
      `castnet: --admin-token-file: cannot read ${join(dir, "nowhere")} (ENOENT)`,
    );
    const empty = join(dir, "empty");
    writeFileSync(empty, "\n", { mode: 0o600 });
    const blank = castnetStart(["--admin-token-file", empty]);
    assert.equal(blank.status, 2);
    assert.equal(blank.stderr.trim(), `castnet: --admin-token-file: ${empty} is empty`);
  });
});
