// Runs every *.test.ts under test/ with Node's own test runner (Node 20 has no --test globs).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The test files `file` imports for their side effect: their suites run inside `file`. */
function suitesImportedBy(file) {
  const source = readFileSync(file, "utf8");
  return [...source.matchAll(/^import "(\.{1,2}\/[^"]+)\.test\.js";$/gm)].map((match) =>
    join(dirname(file), `${match[1]}.test.ts`),
  );
}

const filter = process.argv.slice(2);
const selected = find("test")
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();
// A suite that another selected file imports already runs there; running it alone too doubles its time.
const runInside = new Set(selected.flatMap(suitesImportedBy));
const files = selected.filter((f) => !runInside.has(f));
if (files.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
// The pages' tests (test/pages) drive the distribution's Chromium: install it on a fresh machine.
const CHROMIUM = "/usr/bin/chromium";
if (files.some((f) => f.startsWith(join("test", "pages"))) && !existsSync(CHROMIUM)) {
  const root = process.getuid?.() === 0;
  console.error(`${CHROMIUM} is missing: the page tests need Debian's chromium package`);
  const installed =
    root &&
    spawnSync("sh", ["-c", "apt-get update -qq && apt-get install -y -qq chromium"], { stdio: "inherit" })
      .status === 0;
  if (!installed) {
    console.error("install it with: sudo apt-get install -y chromium");
    process.exit(1);
  }
}
// The tests that run the castnet command run the built one (test/support/cli.ts): build it once here.
// The unit tier (test/unit) imports src through tsx and starts nothing, so it runs without a build.
if (files.some((f) => !f.startsWith(join("test", "unit")))) {
  const build = spawnSync("npm", ["run", "-s", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// No test may use castnet's default ports: the suite must pass beside the castnet a developer runs
// on them (the README's tour). While the tests run, this process holds every one of them that is
// free and drops each connection to it, so that a test that binds one, or calls one, fails here too.
const DEFAULT_PORTS = [2280, 2281, 2282, 2283, 2284];
const held = await Promise.all(
  DEFAULT_PORTS.map(
    (port) =>
      new Promise((resolve) => {
        const server = createServer((socket) => socket.destroy());
        // Taken already: by a castnet of the developer's, which the tests must leave alone as well.
        server.once("error", () => resolve(undefined));
        server.listen(port, "127.0.0.1", () => resolve(server));
      }),
  ),
);
// One file more than there are cores: many files spend much of their time waiting for a stack
// they started, for PostgreSQL or for the browser (two at once on 2 cores kept 1.5 cores busy).
const concurrency = availableParallelism() + 1;
// Not spawnSync: the held ports must answer (by dropping) while the tests run.
const tests = spawn(
  process.execPath,
  ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, ...files],
  {
    stdio: "inherit",
    env: { ...process.env, CASTNET_TEST_BUILT: "1" },
  },
);
const status = await new Promise((resolve) => tests.on("close", (code) => resolve(code ?? 1)));
for (const server of held) server?.close();
process.exit(status);
