/**
 * The castnet command as users run it: the built one in dist/, started by plain node (under tsx each
 * start costs about a second more, and the CLI tests start it a few hundred times), from a folder of
 * its own with the environment of a fresh shell. scripts/test.mjs builds dist/ once before the tests
 * and says so in CASTNET_TEST_BUILT; a test file run on its own builds it here (incrementally) first.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

/** The built command's entry: `node CASTNET_MAIN <args>`. */
export const CASTNET_MAIN = join(ROOT, "dist/cli/main.js");

if (process.env.CASTNET_TEST_BUILT !== "1") {
  const build = spawnSync("npm", ["run", "-s", "build"], { cwd: ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
}

const SCRATCH = mkdtempSync(join(tmpdir(), "castnet-cli-"));
process.on("exit", () => rmSync(SCRATCH, { recursive: true, force: true }));

/**
 * A new empty folder, removed when this process exits: the working directory of a command run by a
 * test, outside the repository and any other folder with a `.castnet` (none above the temporary one).
 */
export function scratchDir(): string {
  return mkdtempSync(join(SCRATCH, "d-"));
}

/**
 * The environment of a user's fresh shell: PATH, and `home` as HOME (by default one of its own, so
 * that the per-user data directory, `$HOME/.local/share/castnet`, is the test's); nothing else of
 * this process's environment (the developer's CASTNET_* variables, DATABASE_URL) reaches the command.
 */
export function userEnv(home: string = scratchDir()): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home };
}
