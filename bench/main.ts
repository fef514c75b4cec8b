/**
 * `npm run bench [-- --quick] [suite ...]`: the CPU each part spends per operation, measured on this
 * machine against floors measured in the same run, then a summary table. `--quick` runs the suites
 * at smaller sizes. Each suite runs in a child process of its own. A benchmark prints numbers; it
 * never passes or fails.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { BenchContext } from "./context.js";
import { type Row, Summary } from "./summary.js";
import { ThreadCpu } from "./threadCpu.js";

const SUITES: Record<string, () => Promise<(context: BenchContext) => Promise<void>>> = {
  protocol: async () => (await import("./protocol.js")).benchProtocol,
  registry: async () => (await import("./registry.js")).benchRegistry,
  "hub-submit": async () => (await import("./hub.js")).benchHubSubmit,
  "hub-reads": async () => (await import("./hub.js")).benchHubReads,
  "hub-gasless": async () => (await import("./gasless.js")).benchHubGasless,
  grpc: async () => (await import("./grpc.js")).benchGrpc,
  clientapi: async () => (await import("./clientapi.js")).benchClientApi,
  chain: async () => (await import("./chain.js")).benchChain,
  "chain-catch-up": async () => (await import("./chainCatchUp.js")).benchChainCatchUp,
};
/** Names that stand for several suites. */
const GROUPS: Record<string, string[]> = { hub: ["hub-submit", "hub-reads"] };

const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith("-"));
const wanted = args.filter((arg) => !arg.startsWith("-"));
const unknownFlags = flags.filter((flag) => flag !== "--quick");
const unknownSuites = wanted.filter((name) => !(name in SUITES) && !(name in GROUPS));
if (unknownFlags.length > 0 || unknownSuites.length > 0) {
  if (unknownFlags.length > 0)
    console.error(`unknown option ${unknownFlags.join(", ")}; the one option is --quick`);
  if (unknownSuites.length > 0)
    console.error(
      `unknown suite ${unknownSuites.join(", ")}; choose from ${[...Object.keys(SUITES), ...Object.keys(GROUPS)].join(", ")}`,
    );
  console.error("usage: npm run bench -- [--quick] [suite ...]");
  process.exit(2);
}

const quick = flags.includes("--quick");
const summary = new Summary(quick);
const suites = wanted.length > 0 ? wanted.flatMap((name) => GROUPS[name] ?? [name]) : Object.keys(SUITES);

if (process.send === undefined) {
  // Each suite runs in a process of its own, so that its servers' memory and collector state are
  // theirs, not what the suites before it left behind (a resident-memory figure would hold it all).
  for (const name of suites) {
    console.log(`\n== ${summary.heading(name)} ==`);
    summary.add(await runAlone(name));
  }
  summary.print();
} else {
  // Before any suite starts a worker thread: the threads alive now are node's own.
  const context: BenchContext = { quick, cpu: await ThreadCpu.probe(), summary };
  const run = await SUITES[suites[0]!]!();
  await run(context);
  process.send(summary.rows());
  process.disconnect();
}

/** Runs one suite in a child process with this one's flags and node options; resolves with its rows. */
function runAlone(name: string): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [...flags, name]);
    let rows: Row[] | undefined;
    child.once("message", (message) => (rows = message as Row[]));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 && rows !== undefined
        ? resolve(rows)
        : reject(new Error(`suite ${name} exited with ${code}`)),
    );
  });
}
