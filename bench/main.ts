/**
 * `npm run bench [-- --quick] [suite ...]`: the CPU each part spends per operation, measured on this
 * machine against floors measured in the same run, then a summary table. `--quick` runs the suites
 * at smaller sizes. A benchmark prints numbers; it never passes or fails.
 */
import type { BenchContext } from "./context.js";
import { Summary } from "./summary.js";
import { ThreadCpu } from "./threadCpu.js";

const SUITES: Record<string, () => Promise<(context: BenchContext) => Promise<void>>> = {
  protocol: async () => (await import("./protocol.js")).benchProtocol,
  registry: async () => (await import("./registry.js")).benchRegistry,
  hub: async () => (await import("./hub.js")).benchHub,
  "hub-submit": async () => (await import("./hub.js")).benchHubSubmit,
  grpc: async () => (await import("./grpc.js")).benchGrpc,
  clientapi: async () => (await import("./clientapi.js")).benchClientApi,
};
/** Run when no suite is named: hub-submit is the first phase of hub, for runs of that phase alone. */
const EVERY_SUITE = Object.keys(SUITES).filter((name) => name !== "hub-submit");

const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith("-"));
const wanted = args.filter((arg) => !arg.startsWith("-"));
const unknownFlags = flags.filter((flag) => flag !== "--quick");
const unknownSuites = wanted.filter((name) => !(name in SUITES));
if (unknownFlags.length > 0 || unknownSuites.length > 0) {
  if (unknownFlags.length > 0)
    console.error(`unknown option ${unknownFlags.join(", ")}; the one option is --quick`);
  if (unknownSuites.length > 0)
    console.error(`unknown suite ${unknownSuites.join(", ")}; choose from ${Object.keys(SUITES).join(", ")}`);
  console.error("usage: npm run bench -- [--quick] [suite ...]");
  process.exit(2);
}

const quick = flags.includes("--quick");
const summary = new Summary(quick);
// Before any suite starts a worker thread: the threads alive now are node's own.
const context: BenchContext = { quick, cpu: await ThreadCpu.probe(), summary };
for (const name of wanted.length > 0 ? wanted : EVERY_SUITE) {
  console.log(`\n== ${summary.heading(name)} ==`);
  const run = await SUITES[name]!();
  await run(context);
}
summary.print();
