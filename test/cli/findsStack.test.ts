/**
 * The command finds the stack it belongs to: the data directory named, else the nearest `.castnet`
 * above the working directory, else the per-user one; the URLs of the castnet running there from
 * its run file; and never a keystore of one stack with the parts of another. Each command runs as a
 * user runs it: the built command, from a folder of its own, in a fresh shell's environment.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { killCastnetProcesses, type RunningCastnet, startCastnetProcess } from "../support/castnetProcess.js";
import { scratchDir } from "../support/cli.js";
import { FREE_PORTS } from "../support/ports.js";
import { castnetIn, errorLines, json } from "./run.js";

interface RunFile {
  pid: number;
  urls: Record<string, string>;
  hubGrpc: string;
  network: string;
  database: string;
}

const readKeystore = (dataDir: string) =>
  JSON.parse(readFileSync(join(dataDir, "keystore.json"), "utf8")) as {
    accounts: Record<string, { fid: number }>;
  };

const readRunFile = (dataDir: string) =>
  JSON.parse(readFileSync(join(dataDir, "castnet.run.json"), "utf8")) as RunFile;

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether `port` can be bound on 127.0.0.1 now. */
function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** The first of `count` consecutive free ports, away from the default ones. */
async function freeRange(count: number): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    let all = true;
    for (let port = base; port < base + count && all; port++) all = await free(port);
    if (all) return base;
  }
}

after(killCastnetProcesses);

describe("a stack started from one folder, used from another", () => {
  // A user who installed castnet globally: `castnet start` in one folder, commands in others, none
  // of them in a project with a .castnet.
  const home = scratchDir();
  const dataDir = join(home, ".local", "share", "castnet");
  const startedIn = scratchDir();
  const elsewhere = scratchDir();
  const user = (env: NodeJS.ProcessEnv = {}) => ({ HOME: home, ...env });
  let castnet: RunningCastnet;
  let pid: number;

  before(async () => {
    castnet = await startCastnetProcess([...FREE_PORTS, "--block-time", "0", "--network", "devnet"], {
      cwd: startedIn,
      env: { HOME: home, CASTNET_LOG_LEVEL: "warn" },
    });
    pid = readRunFile(dataDir).pid;
  });
  after(() => castnet?.stop());

  it("starts in the per-user data directory, and says so", () => {
    assert.ok(
      castnet
        .output()
        .split("\n")
        .includes(`  data dir    ${dataDir} (per-user, as there is no .castnet in ${startedIn} or above it)`),
      castnet.output(),
    );
  });

  it("registers an account on that stack, on its ports, and keeps it in that stack's keystore", async () => {
    const run = await castnetIn(elsewhere, user(), "account", "create", "dora", "--json");
    const dora = json<{ fid: number; custodyAddress: string; keystore: string }>(run);
    assert.equal(dora.keystore, join(dataDir, "keystore.json"));
    assert.deepEqual(errorLines(run), [
      `data directory ${dataDir} (per-user, as there is no .castnet in ${elsewhere} or above it)`,
      `talking to the castnet running on ${dataDir} (process ${pid}): chain ${castnet.urls.devchain}`,
    ]);
    const onChain = (await (await fetch(`${castnet.urls.devchain}/v1/fids/${dora.fid}`)).json()) as {
      custody: string;
    };
    assert.equal(onChain.custody.toLowerCase(), dora.custodyAddress.toLowerCase());
  });

  it("signs messages for that stack's network", async () => {
    const run = await castnetIn(elsewhere, user(), "profile", "set", "--display", "Dora", "--as", "dora");
    assert.equal(run.status, 0, run.stderr);
    const fid = readKeystore(dataDir).accounts.dora!.fid;
    const { messages } = (await (await fetch(`${castnet.urls.hub}/v1/userDataByFid?fid=${fid}`)).json()) as {
      messages: { data: { network: string; userDataBody: { value: string } } }[];
    };
    assert.deepEqual(
      messages.map((m) => [m.data.network, m.data.userDataBody.value]),
      [["SOCIAL_NETWORK_DEVNET", "Dora"]],
    );
  });

  it("reads every part's URL from the run file", async () => {
    const status = json<{ running: boolean; parts: Record<string, { url: string }> }>(
      await castnetIn(elsewhere, user(), "status", "--json"),
    );
    assert.equal(status.running, true);
    assert.deepEqual(Object.fromEntries(Object.entries(status.parts).map(([part, { url }]) => [part, url])), {
      registry: castnet.urls.registry,
      hub: castnet.urls.hub,
      api: castnet.urls["client API"],
      chain: castnet.urls.devchain,
    });
  });

  it("lets a given URL win, for a command that does not use the keystore", async () => {
    const hub = `http://127.0.0.1:${await closedPort()}`;
    const status = await castnetIn(elsewhere, user({ CASTNET_HUB_URL: hub }), "status", "--json");
    assert.equal(status.status, 1);
    assert.deepEqual((JSON.parse(status.stdout) as { parts: { hub: unknown } }).parts.hub, {
      url: hub,
      running: false,
    });
  });

  it("refuses the keystore of this stack with the parts of another, and keeps nothing", async () => {
    const chain = `http://127.0.0.1:${await closedPort()}`;
    for (const [env, args, from] of [
      [{ CASTNET_CHAIN_URL: chain }, [], "CASTNET_CHAIN_URL"],
      [{}, ["--chain-url", chain], "--chain-url"],
    ] as const) {
      const run = await castnetIn(elsewhere, user(env), "account", "create", "eve", ...args);
      assert.equal(run.status, 1);
      assert.equal(
        errorLines(run).at(-1),
        `castnet: the keystore of ${dataDir} keeps the accounts of the castnet running there ` +
          `(process ${pid}), whose devchain is ${castnet.urls.devchain}, not ${chain} (${from}): ` +
          `leave out ${from}, or name the data directory of the stack at that URL (--data-dir, CASTNET_DATA_DIR)`,
      );
    }
    // The same URL, written another way, is the same stack.
    const same = castnet.urls.devchain!.replace("127.0.0.1", "localhost");
    json(
      await castnetIn(
        elsewhere,
        user({ CASTNET_CHAIN_URL: `${same}/` }),
        "account",
        "create",
        "fay",
        "--json",
      ),
    );
    const listed = json<{ accounts: { name: string }[] }>(
      await castnetIn(elsewhere, user(), "account", "list", "--json"),
    );
    assert.deepEqual(
      listed.accounts.map((a) => a.name),
      ["dora", "fay"],
    );
  });

  it("refuses a keystore whose castnet is not running, rather than guess the default ports", async () => {
    const other = scratchDir();
    const run = await castnetIn(scratchDir(), { HOME: other }, "account", "create", "gus");
    const otherData = join(other, ".local", "share", "castnet");
    assert.equal(run.status, 1);
    assert.equal(
      errorLines(run).at(-1),
      `castnet: castnet is not running on ${otherData}, whose keystore this command uses: start it there ` +
        `(castnet start --data-dir ${otherData}), or name the data directory of the castnet that runs ` +
        "(--data-dir, CASTNET_DATA_DIR)",
    );
  });

  it("refuses a second start on the same data directory before touching anything", async () => {
    const run = await castnetIn(scratchDir(), user(), "start", ...FREE_PORTS);
    assert.equal(run.status, 1);
    const { urls } = readRunFile(dataDir);
    assert.deepEqual(errorLines(run), [
      `castnet: castnet already runs on ${dataDir} (process ${pid}: registry ${urls.registry}, ` +
        `hub ${urls.hub}, api ${urls.api}, chain ${urls.chain}); stop it first, or start another ` +
        "stack with another --data-dir",
    ]);
  });
});

describe("the data directory of a project", () => {
  const project = scratchDir();
  const deeper = join(project, "src", "deeper");
  mkdirSync(join(project, ".castnet"));
  mkdirSync(deeper, { recursive: true });

  it("is the nearest .castnet above the working directory, named when it is not ./.castnet", async () => {
    const config = json<{ dataDir: string; dataDirFound: string }>(
      await castnetIn(deeper, {}, "start", "--print-config"),
    );
    assert.equal(config.dataDir, join(project, ".castnet"));
    assert.equal(config.dataDirFound, `the nearest .castnet above ${deeper}`);

    const below = await castnetIn(deeper, {}, "account", "list");
    assert.deepEqual(errorLines(below), [
      `data directory ${join(project, ".castnet")} (the nearest .castnet above ${deeper})`,
    ]);
    const here = await castnetIn(project, {}, "account", "list");
    assert.deepEqual(errorLines(here), []);
  });

  it("gives way to --data-dir and CASTNET_DATA_DIR", async () => {
    const named = scratchDir();
    for (const [env, args] of [
      [{ CASTNET_DATA_DIR: named }, []],
      [{}, ["--data-dir", named]],
    ] as const) {
      const config = json<{ dataDir: string; dataDirFound?: string }>(
        await castnetIn(deeper, env, "start", "--print-config", ...args),
      );
      assert.equal(config.dataDir, named);
      assert.equal(config.dataDirFound, undefined);
      assert.deepEqual(errorLines(await castnetIn(deeper, env, "account", "list", ...args)), []);
    }
  });
});

describe("start --port-base", () => {
  it("puts the five listeners on N to N+4, prints them and writes them to the run file", async () => {
    const base = await freeRange(5);
    const dataDir = scratchDir();
    const castnet = await startCastnetProcess(["--port-base", String(base), "--data-dir", dataDir], {
      env: { CASTNET_LOG_LEVEL: "warn", CASTNET_BLOCK_TIME: "0" },
    });
    try {
      const url = (offset: number) => `http://127.0.0.1:${base + offset}`;
      assert.deepEqual(castnet.urls, {
        registry: url(0),
        hub: url(1),
        "client API": url(2),
        devchain: url(4),
      });
      assert.match(castnet.output(), new RegExp(`^  hub gRPC    127\\.0\\.0\\.1:${base + 3}$`, "m"));
      const runFile = readRunFile(dataDir);
      assert.deepEqual(runFile.urls, { registry: url(0), hub: url(1), api: url(2), chain: url(4) });
      assert.equal(runFile.hubGrpc, `127.0.0.1:${base + 3}`);
      // A command given the data directory alone talks to them.
      const status = json<{ running: boolean }>(
        await castnetIn(scratchDir(), { CASTNET_DATA_DIR: dataDir }, "status", "--json"),
      );
      assert.equal(status.running, true);
    } finally {
      await castnet.stop();
    }
  });
});
