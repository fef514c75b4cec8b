/**
 * `castnet status`, `castnet backup` and `castnet reset` as a user runs them, against a real stack.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { createLogger } from "../../src/http/index.js";
import { testEngines } from "../support/databases.js";
import { FREE_PORTS } from "../support/ports.js";
import { castnet, errorLines, json } from "./run.js";

type Part = "registry" | "hub" | "api" | "chain";

describe("the maintenance commands", () => {
  let dir: string;
  let data: string;
  let stack: RunningStack | undefined;
  let url: Record<Part, string>;
  let env: NodeJS.ProcessEnv;
  const start = async (dataDir: string) =>
    startStack(
      parseStartOptions(["--data-dir", dataDir, "--block-time", "0", ...FREE_PORTS], {}),
      createLogger("silent"),
    );

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "castnet-maintenance-"));
    data = join(dir, "data");
    stack = await start(data);
    url = stack.urls as Record<Part, string>;
    env = {
      CASTNET_DATA_DIR: data,
      CASTNET_HUB_URL: url.hub,
      CASTNET_REGISTRY_URL: url.registry,
      CASTNET_API_URL: url.api,
      CASTNET_CHAIN_URL: url.chain,
    };
    json(await castnet(env, "account", "create", "alice", "--json"));
  });

  after(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("status: each part's URL, version and what it holds, read over HTTP", async () => {
    const status = json<{
      running: boolean;
      parts: Record<Part, Record<string, unknown>>;
    }>(await castnet(env, "status", "--json"));
    const eventId = status.parts.hub.latestEventId;
    assert.equal(typeof eventId, "number");
    assert.deepEqual(status, {
      running: true,
      parts: {
        registry: { url: url.registry, running: true, version: "0.1.0", transfers: 0 },
        hub: {
          url: url.hub,
          running: true,
          version: "0.1.0",
          hubVersion: status.parts.hub.hubVersion,
          latestEventId: eventId,
          messages: 0,
          onChainEvents: 3,
          nameProofs: 0,
        },
        api: { url: url.api, running: true, version: "0.1.0", channels: 0 },
        // alice's fid, her balance, her key and her storage: a block each.
        chain: { url: url.chain, running: true, version: "0.1.0", block: 4 },
      },
    });
  });

  it("status: a part that does not answer is named, and the exit status is 1", async () => {
    const partial = await castnet({ ...env, CASTNET_HUB_URL: "http://127.0.0.1:9" }, "status");
    assert.equal(partial.status, 1);
    assert.ok(
      partial.stdout.split("\n").includes("hub       http://127.0.0.1:9  not running"),
      partial.stdout,
    );
  });

  it("backup: a consistent copy of every part and the keystore while the stack runs, which starts", async () => {
    const target = join(dir, "backup");
    const backup = json<{ directory: string; files: string[] }>(
      await castnet(env, "backup", target, "--json"),
    );
    assert.deepEqual(backup, {
      directory: target,
      files: ["api.sqlite", "hub.sqlite", "registry.sqlite", "chain.sqlite", "keystore.json"],
    });
    assert.equal(statSync(target).mode & 0o777, 0o700);
    const again = await castnet(env, "backup", target);
    assert.equal(again.status, 2);
    assert.deepEqual(errorLines(again), [`castnet: ${target} is not empty: back up into a new directory`]);

    const restored = await start(target);
    try {
      const account = await (await fetch(`${restored.urls.chain}/v1/fids/1`)).json();
      assert.equal((account as { fid: number }).fid, 1);
    } finally {
      await restored.close();
    }
  });

  it("backup and reset on PostgreSQL: the pg_dump advice, exit status 1", async () => {
    const pg = { ...env, DATABASE_URL: "postgres://127.0.0.1/castnet" };
    const backup = await castnet(pg, "backup", join(dir, "pg"));
    assert.equal(backup.status, 1);
    assert.match(
      errorLines(backup)[0]!,
      /^castnet: castnet backup works on the embedded SQLite files; .*pg_dump/,
    );
  });

  it("reset: refuses while the stack runs, asks for --yes without a terminal, then deletes", async () => {
    const running = await castnet(env, "reset", "--yes");
    assert.equal(running.status, 1);
    assert.deepEqual(errorLines(running), [
      `castnet: castnet is running on ${data} (process ${process.pid}): stop it first`,
    ]);
    await stack!.close();
    stack = undefined;
    assert.equal(existsSync(join(data, "castnet.run.json")), false);

    const unconfirmed = await castnet(env, "reset");
    assert.equal(unconfirmed.status, 2);
    assert.match(
      errorLines(unconfirmed)[0]!,
      /^castnet: reset deletes .*keystore\.json.*: confirm with --yes$/,
    );

    const reset = json<{ deleted: string[] }>(await castnet(env, "reset", "--yes", "--json"));
    assert.ok(reset.deleted.includes("hub.sqlite") && reset.deleted.includes("keystore.json"));
    assert.deepEqual(
      readdirSync(data).filter((f) => f.endsWith(".sqlite") || f === "keystore.json"),
      [],
    );
  });
});

for (const engine of (await testEngines()).filter((e) => e.engine === "postgres")) {
  describe(
    "backup and reset of a stack kept in PostgreSQL, from a shell without DATABASE_URL",
    {
      skip: engine.skip,
    },
    () => {
      let dir: string;
      let drop: () => Promise<void>;
      let stack: RunningStack | undefined;

      before(async () => {
        dir = mkdtempSync(join(tmpdir(), "castnet-maintenance-pg-"));
        const created = await engine.create();
        drop = created.drop;
        const url = created.config.engine === "postgres" ? created.config.url : "";
        stack = await startStack(
          parseStartOptions(["--data-dir", dir, "--block-time", "0", ...FREE_PORTS], { DATABASE_URL: url }),
          createLogger("silent"),
        );
        json(await castnet({ CASTNET_DATA_DIR: dir }, "account", "create", "alice", "--json"));
      });

      after(async () => {
        await stack?.close();
        await drop?.();
        rmSync(dir, { recursive: true, force: true });
      });

      it("refuses them with the pg_dump and dropdb advice, while it runs and once it has stopped", async () => {
        for (const state of ["running", "stopped"]) {
          if (state === "stopped") {
            await stack!.close();
            stack = undefined;
          }
          const target = join(dir, `backup-${state}`);
          const backup = await castnet({ CASTNET_DATA_DIR: dir }, "backup", target);
          assert.equal(backup.status, 1, state);
          assert.deepEqual(errorLines(backup), [
            `castnet: castnet backup works on the embedded SQLite files; the castnet of ${dir} keeps its ` +
              'data in PostgreSQL: back it up with pg_dump (pg_dump --format=custom --file=castnet.dump "$DATABASE_URL"; ' +
              "restore with pg_restore)",
          ]);
          assert.equal(existsSync(target), false, state);

          const reset = await castnet({ CASTNET_DATA_DIR: dir }, "reset", "--yes");
          assert.equal(reset.status, 1, state);
          assert.deepEqual(errorLines(reset), [
            `castnet: castnet reset works on the embedded SQLite files; the castnet of ${dir} keeps its ` +
              "data in PostgreSQL: drop and create that database (dropdb, createdb) while castnet is stopped",
          ]);
          assert.ok(existsSync(join(dir, "keystore.json")), state);
        }
      });
    },
  );
}
