/**
 * `castnet backup <dir>` and `castnet reset`: the embedded databases of a data directory, copied while
 * the stack runs (SQLite's online backup), or deleted while it does not.
 */
import { closeSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { type Command, Option } from "commander";
import { createBackupFile, openBackupDirectory } from "../backupTarget.js";
import { type CommonOptions, report, withOptions } from "../context.js";
import { CliError } from "../http/request.js";
import { UsageError } from "../../usageError.js";
import { lastDatabase, runningStack } from "../../stack/runFile.js";

/**
 * Followers before what they follow (the client API reads the hub, which follows the registry and the
 * chain), so that each copy holds at least what the copies before it saw: on a restore, followers
 * catch up instead of pointing at what is not there.
 */
const PARTS = ["api", "hub", "registry", "chain"] as const;

/**
 * Refuses to back up or reset a stack kept in PostgreSQL: with DATABASE_URL set, or when the run
 * file of the castnet running on the data directory (or the record of the last one that ran there)
 * says PostgreSQL. Its data is not in the directory: copying or deleting the keystore alone, and
 * saying it was done, would leave the user with a backup that restores nothing.
 */
function refusePostgres(what: "backup" | "reset", dataDir: string): void {
  const why = process.env.DATABASE_URL
    ? "with DATABASE_URL the data is in PostgreSQL"
    : lastDatabase(dataDir) === "postgres"
      ? `the castnet of ${dataDir} keeps its data in PostgreSQL`
      : undefined;
  if (why === undefined) return;
  throw new CliError(
    `castnet ${what} works on the embedded SQLite files; ${why}: ` +
      (what === "backup"
        ? 'back it up with pg_dump (pg_dump --format=custom --file=castnet.dump "$DATABASE_URL"; restore with pg_restore)'
        : "drop and create that database (dropdb, createdb) while castnet is stopped"),
  );
}

export function registerMaintenance(program: Command): void {
  withOptions(
    program
      .command("backup <dir>")
      .description("copy every part's database and the keystore into a new directory, while the stack runs"),
    { keystore: true },
  ).action(async (target: string, options: CommonOptions) => {
    const dataDir = options.dataDir!;
    refusePostgres("backup", dataDir);
    const dir = resolve(target);
    const tightened = openBackupDirectory(dir);
    // Loaded here, like every command's heavy modules, so that other commands start without it.
    const { default: Database } = await import("better-sqlite3");
    const copied: string[] = [];
    for (const part of PARTS) {
      const source = join(dataDir, `${part}.sqlite`);
      if (!existsSync(source)) continue;
      const database = new Database(source, { fileMustExist: true });
      try {
        // SQLite opens the empty private file made here: it writes into it, and never follows a link.
        closeSync(createBackupFile(dir, `${part}.sqlite`));
        // SQLite's online backup: a consistent snapshot even while the stack writes.
        await database.backup(join(dir, `${part}.sqlite`));
      } finally {
        database.close();
      }
      copied.push(`${part}.sqlite`);
    }
    if (existsSync(join(dataDir, "keystore.json"))) {
      const keystore = createBackupFile(dir, "keystore.json");
      try {
        writeFileSync(keystore, readFileSync(join(dataDir, "keystore.json")));
      } finally {
        closeSync(keystore);
      }
      copied.push("keystore.json");
    }
    if (copied.length === 0) throw new CliError(`${dataDir} holds no castnet data`);
    report(options, { directory: dir, files: copied }, [
      ...(tightened === undefined ? [] : [`made ${dir} private (it was ${tightened.toString(8)})`]),
      `backed up ${copied.join(", ")} into ${dir}`,
      `restore: stop castnet, then castnet start --data-dir ${dir} (or copy the files back)`,
    ]);
  });

  withOptions(
    program
      .command("reset")
      .description("delete every part's database and the keystore (castnet must be stopped)")
      .addOption(new Option("--yes", "do not ask")),
    { keystore: true },
  ).action(async (options: CommonOptions & { yes?: boolean }) => {
    const dataDir = options.dataDir!;
    refusePostgres("reset", dataDir);
    const running = runningStack(dataDir);
    if (running)
      throw new CliError(`castnet is running on ${dataDir} (process ${running.pid}): stop it first`);
    const files = existsSync(dataDir)
      ? readdirSync(dataDir).filter((f) =>
          /^(api|hub|registry|chain)\.sqlite(-wal|-shm)?$|^keystore\.json$/.test(f),
        )
      : [];
    if (files.length === 0) return void report(options, { deleted: [] }, `${dataDir} holds no castnet data`);
    if (!options.yes) {
      if (!process.stdin.isTTY)
        throw new UsageError(`reset deletes ${files.join(", ")} in ${dataDir}: confirm with --yes`);
      const prompt = createInterface({ input: process.stdin, output: process.stderr });
      const answer = await prompt.question(`delete ${files.join(", ")} in ${dataDir}? [y/N] `);
      prompt.close();
      if (!/^y(es)?$/i.test(answer.trim())) return void console.error("nothing deleted");
    }
    for (const file of files) rmSync(join(dataDir, file), { force: true });
    report(options, { deleted: files }, `deleted ${files.join(", ")} in ${dataDir}`);
  });
}
