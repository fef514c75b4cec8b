/**
 * `castnet` as a user runs it: a real process, its exit status and what it prints.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CASTNET_MAIN, scratchDir, userEnv } from "../support/cli.js";
import { FREE_PORTS } from "../support/ports.js";
import { NEW_DATA_DIR_MIGRATIONS } from "./run.js";

const ROOT = join(import.meta.dirname, "../..");
const env = { ...userEnv(), CASTNET_LOG_LEVEL: "silent" };

function castnet(...args: string[]) {
  return spawnSync(process.execPath, [CASTNET_MAIN, ...args], { cwd: scratchDir(), encoding: "utf8", env });
}

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "" && !l.includes("ExperimentalWarning"));
}

describe("the castnet command", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "castnet-cli-"));
    dirs.push(dir);
    return dir;
  };

  it("lists every start option with its environment variable", () => {
    const help = castnet("start", "--help");
    assert.equal(help.status, 0);
    for (const option of [
      "--data-dir",
      "--host",
      "--registry-port",
      "--hub-port",
      "--api-port",
      "--chain-port",
      "--only",
      "--registry-url",
      "--hub-url",
      "--chain-url",
      "--naming",
      "--network",
      "--block-time",
      "--admin-token",
      "--log-level",
      "--rpc-auth",
      "--seed",
      "DATABASE_URL",
      "CASTNET_HUB_PORT",
    ])
      assert.ok(help.stdout.includes(option), `start --help mentions ${option}`);
    const top = castnet("--help");
    assert.equal(top.status, 0);
    assert.match(top.stdout, /castnet start/);
    assert.match(top.stdout, /castnet account create/);
    assert.match(top.stdout, /castnet key-request approve/);
  });

  it("answers a bad option with one line and exit status 2", () => {
    const result = castnet("start", "--hub-prot", "3000");
    assert.equal(result.status, 2);
    assert.deepEqual(lines(result.stderr), [
      "castnet: unknown option '--hub-prot' (see castnet start --help)",
    ]);
  });

  it("answers an unknown command with one line and exit status 2", () => {
    const result = castnet("launch");
    assert.equal(result.status, 2);
    assert.deepEqual(lines(result.stderr), ['castnet: unknown command "launch" (see castnet --help)']);
  });

  it("answers a port in use before anything else, naming the option that moves it, and exits non-zero", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    const dir = dataDir();
    try {
      const result = castnet("start", "--data-dir", dir, ...FREE_PORTS, "--hub-port", String(port));
      assert.equal(result.status, 1);
      // No migrations first: the data directory is left as it was.
      assert.deepEqual(lines(result.stderr), [
        `castnet: port ${port} is already in use on 127.0.0.1: move it with --hub-port, ` +
          "or every port with --port-base N or --ports auto",
      ]);
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      blocker.close();
    }
  });

  it("stops cleanly on Ctrl+C during the seed, through npm start: exit 0, a last line, nothing left behind", async (t) => {
    const dir = dataDir();
    const npm = spawn(
      "npm",
      [
        "start",
        "--prefix",
        ROOT,
        "--ignore-scripts",
        "--",
        "--data-dir",
        dir,
        ...FREE_PORTS,
        "--seed",
        "demo",
      ],
      {
        cwd: scratchDir(),
        env: { ...env, npm_config_update_notifier: "false" },
        // Its own process group: Ctrl+C at a terminal signals the whole foreground group, npm and castnet.
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    t.after(() => {
      if (npm.exitCode === null) process.kill(-npm.pid!, "SIGKILL");
    });
    let stdout = "";
    let stderr = "";
    npm.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    npm.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | string | null>((resolve) =>
      npm.on("close", (code, signal) => resolve(code ?? signal)),
    );
    const deadline = Date.now() + 30_000;
    while (!stderr.includes("seeding the demo:") && Date.now() < deadline && npm.exitCode === null)
      await new Promise((r) => setTimeout(r, 20));
    assert.match(stderr, /seeding the demo: \d+ of \d+/, stdout + stderr);
    process.kill(-npm.pid!, "SIGINT");
    assert.equal(await exited, 0, stdout + stderr);
    assert.ok(!stdout.includes("Press Ctrl+C"), "the seed was under way");
    assert.deepEqual(lines(stdout).slice(-2), ["SIGINT: stopping castnet…", "castnet stopped"]);
    // The databases closed (no write-ahead logs left) and the run file removed.
    assert.deepEqual(
      readdirSync(dir)
        .filter((f) => /-(wal|shm)$/.test(f) || f === "castnet.run.json")
        .sort(),
      [],
    );
  });

  it("stops cleanly on a SIGTERM sent the moment it says it is running", async (t) => {
    // A script or a process manager that waits for the banner and then stops castnet must get a
    // clean stop, not a process killed by the signal. A start does not always lose that race (7 of
    // 20 did, here, with the signals handled after the banner): several make a lost one show.
    const dir = dataDir();
    for (let start = 0; start < 10; start++) {
      const child = spawn(process.execPath, [CASTNET_MAIN, "start", "--data-dir", dir, ...FREE_PORTS], {
        env,
        stdio: ["ignore", "pipe", "ignore"],
      });
      t.after(() => void child.kill("SIGKILL"));
      let stdout = "";
      let signalled = false;
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (!signalled && stdout.includes("Press Ctrl+C")) signalled = child.kill("SIGTERM");
      });
      const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
        child.on("exit", (...exit) => resolve(exit)),
      );
      assert.deepEqual({ start, code, signal }, { start, code: 0, signal: null });
      assert.match(stdout, /SIGTERM: stopping castnet/);
    }
  });

  it("starts the four parts, prints their URLs, serves them, and stops cleanly on SIGTERM", async (t) => {
    const child: ChildProcess = spawn(
      process.execPath,
      [
        CASTNET_MAIN,
        "start",
        "--data-dir",
        dataDir(),
        "--registry-port",
        "0",
        "--hub-port",
        "0",
        "--api-port",
        "0",
        "--chain-port",
        "0",
        "--hub-grpc-port",
        "0",
        "--block-time",
        "0",
        "--log-level",
        "debug",
      ],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    t.after(() => void child.kill("SIGKILL"));
    const deadline = Date.now() + 30_000;
    while (!stdout.includes("Press Ctrl+C") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    assert.match(stdout, /castnet \S+ is running/);
    const urls = Object.fromEntries(
      [...stdout.matchAll(/^\s+(registry|hub|client API|devchain)\s+(http:\/\/\S+)$/gm)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    assert.deepEqual(Object.keys(urls).sort(), ["client API", "devchain", "hub", "registry"]);
    assert.match(stdout, /^\s+hub gRPC\s+127\.0\.0\.1:\d+$/m);
    assert.match(stdout, new RegExp(`^\\s+explorer\\s+${urls["client API"]}/$`, "m"));
    for (const url of Object.values(urls)) {
      const health = await fetch(`${url}/_health`);
      assert.equal(health.status, 200);
    }
    const fid = await fetch(`${urls.devchain}/v1/fids`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ custody: "0x000000000000000000000000000000000000dEaD" }),
    });
    assert.equal(fid.status, 200);
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
    assert.match(stdout, /SIGTERM: stopping castnet/);
    // stderr is not a terminal: the logs are JSON lines, one per request at debug level, beside the
    // plain lines of the migrations of a new data directory.
    const [json, plain] = [
      lines(stderr).filter((l) => l.startsWith("{")),
      lines(stderr).filter((l) => !l.startsWith("{")),
    ];
    assert.deepEqual(plain, NEW_DATA_DIR_MIGRATIONS);
    const logs = json.map((line) => JSON.parse(line) as Record<string, unknown>);
    const health = logs.filter((l) => l.msg === "request" && l.url === "/_health");
    assert.equal(health.length, 4);
    assert.deepEqual(
      health.map((l) => [l.level, l.method, l.status]),
      [
        [20, "GET", 200],
        [20, "GET", 200],
        [20, "GET", 200],
        [20, "GET", 200],
      ],
    );
  });
});
