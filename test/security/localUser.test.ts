/**
 * Other users of the same machine: what they could read of a backup, what a castnet.config.json they
 * could write would make castnet do, and the RPC password they would see in `ps` or in
 * `--print-config`. The built command, run as a user runs it, in a working directory of the test's.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import * as core from "@farcaster/core";
import SQLite from "better-sqlite3";
import { createAccount } from "../../src/stack/account.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { UsageError } from "../../src/usageError.js";
import { startCastnet } from "../../src/library.js";
import { castnet, errorLines, json, type Run } from "../cli/run.js";
import { CASTNET_MAIN } from "../support/cli.js";
import { killCastnetProcesses, startCastnetProcess } from "../support/castnetProcess.js";
import { FREE_PORTS } from "../support/ports.js";

/** `nobody`: another user, for the tests that give a file or directory away (they need root). */
const NOBODY = 65534;
const AS_ROOT = process.getuid?.() === 0;
/** What a data directory holds for `castnet backup`; the hub's is big enough to take a while to copy. */
const PARTS = ["api", "hub", "registry", "chain"] as const;
const KEYSTORE = '{"accounts":{}}\n';
const RPC_PASSWORD = "rpc-pa55word-0123456789";

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Every command here starts from a umask that leaves new files readable by others, as most do. */
process.umask(0o022);

const scratchDirs: string[] = [];
after(() => {
  killCastnetProcesses();
  scratchDirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "castnet-local-"));
  scratchDirs.push(dir);
  return dir;
}

/** A data directory as castnet leaves it: one SQLite file per part and the keystore. */
function dataDir(hubRows = 10): string {
  const dir = join(scratch(), "data");
  mkdirSync(dir, { mode: 0o700 });
  for (const part of PARTS) {
    const database = new SQLite(join(dir, `${part}.sqlite`));
    database.exec("create table secrets (value blob)");
    database
      .prepare(
        "with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) " +
          "insert into secrets select randomblob(1024) from n",
      )
      .run(part === "hub" ? hubRows : 10);
    database.close();
    chmodSync(join(dir, `${part}.sqlite`), 0o600);
  }
  writeFileSync(join(dir, "keystore.json"), KEYSTORE, { mode: 0o600 });
  return dir;
}

const backup = (data: string, target: string) =>
  castnet({ CASTNET_DATA_DIR: data, DATABASE_URL: "" }, "backup", target);

describe("castnet backup, as other users of the machine see it", () => {
  it("makes an existing 0755 directory 0700 and every copy 0600", async () => {
    const target = join(scratch(), "backup");
    mkdirSync(target, { mode: 0o755 });
    assert.equal(mode(target), "755");
    const run = await backup(dataDir(), target);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(mode(target), "700");
    const files = readdirSync(target).sort();
    assert.deepEqual(files, ["api.sqlite", "chain.sqlite", "hub.sqlite", "keystore.json", "registry.sqlite"]);
    for (const name of files) assert.equal(mode(join(target, name)), "600", name);
    assert.equal(readFileSync(join(target, "keystore.json"), "utf8"), KEYSTORE);
    assert.match(run.stdout, new RegExp(`^made ${target} private \\(it was 755\\)$`, "m"));
  });

  it("refuses a destination that is a symbolic link, and leaves what it points at alone", async () => {
    const elsewhere = join(scratch(), "elsewhere");
    mkdirSync(elsewhere, { mode: 0o755 });
    const link = join(scratch(), "backup");
    symlinkSync(elsewhere, link);
    const run = await backup(dataDir(), link);
    assert.equal(run.status, 1);
    assert.deepEqual(errorLines(run), [
      `castnet: ${link} is a symbolic link: back up into a directory of your own`,
    ]);
    assert.deepEqual(readdirSync(elsewhere), []);
    assert.equal(mode(elsewhere), "755");
  });

  it("refuses a directory another user owns, even as root", { skip: !AS_ROOT && "needs root" }, async () => {
    const target = join(scratch(), "backup");
    mkdirSync(target, { mode: 0o700 });
    chownSync(target, NOBODY, NOBODY);
    const run = await backup(dataDir(), target);
    assert.equal(run.status, 1);
    assert.deepEqual(errorLines(run), [
      `castnet: ${target} belongs to another user (uid ${NOBODY}): back up into a directory of your own`,
    ]);
    assert.deepEqual(readdirSync(target), []);
    assert.equal(mode(target), "700");
  });

  it("never writes through a symbolic link planted in the directory during the backup", async () => {
    // A user who can write into the directory waits for the first copy, then plants a link where a
    // later copy goes. The hub's 20 MB take long enough to copy that the link is always in time.
    const data = dataDir(20_000);
    const target = join(scratch(), "backup");
    mkdirSync(target, { mode: 0o777 });
    chmodSync(target, 0o777);
    const victim = join(scratch(), "victim");
    writeFileSync(victim, "not yours\n");
    let planted = false;
    const watcher = watch(target, () => {
      if (planted || !existsSync(join(target, "api.sqlite"))) return;
      planted = true;
      symlinkSync(victim, join(target, "keystore.json"));
    });
    let run: Run;
    try {
      run = await backup(data, target);
    } finally {
      watcher.close();
    }
    assert.ok(planted, "the link was never planted");
    assert.equal(readFileSync(victim, "utf8"), "not yours\n");
    assert.equal(run.status, 1, run.stdout);
    assert.deepEqual(errorLines(run), [
      `castnet: ${join(target, "keystore.json")} appeared during the backup: another process writes ` +
        `into ${target}; the backup is incomplete and nothing was written through it`,
    ]);
  });
});

/** `castnet start` in `cwd` until it says it runs; stop() sends SIGTERM and returns what it printed. */
const start = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  startCastnetProcess([...FREE_PORTS, ...args], {
    cwd,
    env: { CASTNET_LOG_LEVEL: "warn", CASTNET_BLOCK_TIME: "0", ...env },
  });

/** A working directory holding a castnet.config.json of `settings`, with the file's `fileMode`. */
function workingDir(settings: Record<string, unknown>, fileMode: number): { cwd: string; file: string } {
  const cwd = scratch();
  const file = join(cwd, "castnet.config.json");
  writeFileSync(file, JSON.stringify(settings));
  chmodSync(file, fileMode);
  return { cwd, file };
}

function startIn(cwd: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CASTNET_MAIN, "start", ...FREE_PORTS, ...args], {
      cwd,
      env: { ...process.env, CASTNET_LOG_LEVEL: "silent", CASTNET_CONFIG: "", CASTNET_ALLOWED_HOSTS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("a castnet.config.json others could write", () => {
  const refusal = (file: string, why: string) =>
    `castnet: ${file} sets allowed-hosts and registry-admin, but ${why}: castnet takes such settings ` +
    "from a file found in the working directory only when you own it and no one else can write it; " +
    `accept it with --config ${file}, or make it yours and chmod go-w it`;
  const LOOSE = { "allowed-hosts": "*", "registry-admin": `7=0x${"ab".repeat(20)}`, naming: "reference" };

  it("refuses to start on a world-writable one that opens castnet up", async () => {
    const { cwd, file } = workingDir(LOOSE, 0o666);
    const run = await startIn(cwd, "--print-config");
    assert.equal(run.status, 2, run.stdout);
    assert.deepEqual(errorLines(run), [refusal(file, "other users can write it (mode 666)")]);
  });

  it("refuses one another user owns", { skip: !AS_ROOT && "needs root" }, async () => {
    const { cwd, file } = workingDir(LOOSE, 0o644);
    chownSync(file, NOBODY, NOBODY);
    const run = await startIn(cwd, "--print-config");
    assert.equal(run.status, 2, run.stdout);
    assert.deepEqual(errorLines(run), [refusal(file, `another user owns it (uid ${NOBODY})`)]);
  });

  it("still takes settings that open nothing from such a file", async () => {
    const { cwd } = workingDir({ naming: "reference", "block-time": 0 }, 0o666);
    const printed = json<{ naming: string }>(await startIn(cwd, "--print-config"));
    assert.equal(printed.naming, "reference");
  });

  it("judges every setting that opens castnet up, in castnet start and in the SDK's startCastnet", async () => {
    const cases: [Record<string, unknown>, string | undefined][] = [
      [{ host: "127.0.0.1", "hub-port": 3001 }, undefined],
      [{ host: "0.0.0.0" }, "host"],
      [{ "data-dir": "/tmp/theirs", "chain-url": "http://evil.example" }, "data-dir and chain-url"],
      [{ registry: { rateLimit: false }, api: { sponsorCost: 1 } }, "registry.rateLimit"],
    ];
    const home = process.cwd();
    for (const [settings, refused] of cases) {
      const { cwd, file } = workingDir(settings, 0o666);
      process.chdir(cwd);
      try {
        const parse = () => parseStartOptions([], {});
        if (refused === undefined) assert.equal(parse().configFile?.path, file);
        else
          assert.throws(
            parse,
            (e: unknown) =>
              e instanceof UsageError &&
              e.message.startsWith(`${file} sets ${refused}, but other users can write it`),
          );
        // The same file of one's own, that no one else can write, is taken as it is.
        chmodSync(file, 0o644);
        assert.equal(parseStartOptions([], {}).configFile?.from, "found in the working directory");
        chmodSync(file, 0o666);
        if (refused !== undefined)
          await assert.rejects(startCastnet({ parts: ["chain"] }), (e: unknown) => e instanceof UsageError);
      } finally {
        process.chdir(home);
      }
    }
  });

  it("takes it when named with --config, and the banner says where each loosened rule comes from", async () => {
    const { cwd, file } = workingDir(LOOSE, 0o666);
    const running = await start(cwd, ["--config", file, "--data-dir", join(cwd, "data")], {
      CASTNET_TRUSTED_ORIGINS: "https://admin.example",
    });
    const hub = running.urls.hub!;
    // The file's allowed-hosts: a name the Host check would refuse (421) is served.
    const answered = await fetch(`${hub}/v1/info`, { headers: { host: "evil.example" } });
    assert.equal(answered.status, 200);
    const output = await running.stop();
    const lines = output.split("\n");
    assert.ok(lines.includes(`  config      ${file} (--config)`), output);
    assert.ok(lines.includes(`  security    allowed-hosts * (${file})`), output);
    assert.ok(lines.includes(`  security    registry-admin 7=0x${"ab".repeat(20)} (${file})`), output);
    assert.ok(
      lines.includes("  security    trusted-origins https://admin.example (CASTNET_TRUSTED_ORIGINS)"),
      output,
    );
    assert.ok(lines.includes(`  security    data-dir ${join(cwd, "data")} (--data-dir)`), output);
  });
});

describe("the hub's RPC password", () => {
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString("base64")}`;

  it("is not printed by --print-config", async () => {
    const run = await castnet(
      { CASTNET_CONFIG: "" },
      "start",
      "--rpc-auth",
      `alice:${RPC_PASSWORD}`,
      "--print-config",
    );
    const printed = json<Record<string, unknown>>(run);
    assert.equal(printed.rpcAuth, "(set)");
    assert.ok(!run.stdout.includes(RPC_PASSWORD), run.stdout);
  });

  it("is read from --rpc-auth-file and CASTNET_RPC_AUTH_FILE: right credentials submit, wrong ones do not", async () => {
    const cwd = scratch();
    const file = join(cwd, "rpc-auth");
    writeFileSync(file, `alice:${RPC_PASSWORD}\n`, { mode: 0o600 });
    for (const [how, env] of [
      [["--rpc-auth-file", file], {}],
      [[], { CASTNET_RPC_AUTH_FILE: file }],
    ] as const) {
      const running = await start(cwd, ["--network", "devnet", "--data-dir", join(cwd, "data"), ...how], env);
      const hub = running.urls.hub!;
      const account = await createAccount({ chainUrl: running.urls.devchain!, units: 1 });
      const signer = new core.NobleEd25519Signer(Buffer.from(account.signerPrivateKey.slice(2), "hex"));
      const deadline = Date.now() + 20_000;
      const signers = `${hub}/v1/onChainSignersByFid?fid=${account.fid}&signer=${account.signerPublicKey}`;
      while ((await fetch(signers)).status !== 200 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const cast = (
        await core.makeCastAdd(
          {
            text: "with a password",
            embeds: [],
            embedsDeprecated: [],
            mentions: [],
            mentionsPositions: [],
            type: 0,
          },
          { fid: account.fid, network: core.FarcasterNetwork.DEVNET },
          signer,
        )
      )._unsafeUnwrap();
      const submit = (authorization?: string) =>
        fetch(`${hub}/v1/submitMessage`, {
          method: "POST",
          headers: {
            "content-type": "application/octet-stream",
            ...(authorization === undefined ? {} : { authorization }),
          },
          body: core.Message.encode(cast).finish(),
        });
      assert.equal((await submit()).status, 401);
      assert.equal((await submit(basic("alice:wrong"))).status, 401);
      const accepted = await submit(basic(`alice:${RPC_PASSWORD}`));
      assert.equal(accepted.status, 200, await accepted.text());
      const output = await running.stop();
      assert.ok(!output.includes(RPC_PASSWORD));
      assert.ok(!output.includes("readable by"), output);
    }
  });

  it("warns when the file is readable by others, as for the admin token file", async () => {
    const cwd = scratch();
    const file = join(cwd, "rpc-auth");
    writeFileSync(file, `alice:${RPC_PASSWORD}\n`);
    chmodSync(file, 0o644);
    const running = await start(cwd, ["--data-dir", join(cwd, "data"), "--rpc-auth-file", file]);
    const output = await running.stop();
    const warning = output.split("\n").find((line) => line.includes("RPC credentials file"));
    assert.ok(warning, output);
    assert.equal(
      (JSON.parse(warning) as { msg: string }).msg,
      `the RPC credentials file ${file} is readable by other users (mode 644); chmod 600 it`,
    );
    const both = await castnet({}, "start", "--rpc-auth", "a:b", "--rpc-auth-file", file);
    assert.equal(both.status, 2);
    assert.deepEqual(errorLines(both), [
      "castnet: give the RPC credentials either directly or as a file, not both",
    ]);
  });
});
