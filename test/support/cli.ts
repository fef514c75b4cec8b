/**
 * The castnet command as users run it: the built one in dist/, started by plain node (under tsx each
 * start costs about a second more, and the CLI tests start it a few hundred times). scripts/test.mjs
 * builds dist/ once before the tests and says so in CASTNET_TEST_BUILT; a test file run on its own
 * builds it here (incrementally) first.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

/** The built command's entry: `node CASTNET_MAIN <args>`. */
export const CASTNET_MAIN = join(ROOT, "dist/cli/main.js");

if (process.env.CASTNET_TEST_BUILT !== "1") {
  const build = spawnSync("npm", ["run", "-s", "build"], { cwd: ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
}
