/**
 * `npm run bench [-- part ...]`: prints throughput figures of each part, measured on this machine.
 * A benchmark prints numbers; it never passes or fails.
 */
const SUITES: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  protocol: async () => ({ run: (await import("./protocol.js")).benchProtocol }),
  registry: async () => ({ run: (await import("./registry.js")).benchRegistry }),
  hub: async () => ({ run: (await import("./hub.js")).benchHub }),
  grpc: async () => ({ run: (await import("./grpc.js")).benchGrpc }),
  clientapi: async () => ({ run: (await import("./clientapi.js")).benchClientApi }),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in SUITES));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(", ")}; choose from ${Object.keys(SUITES).join(", ")}`);
  process.exit(2);
}
for (const name of wanted.length > 0 ? wanted : Object.keys(SUITES)) {
  console.log(`\n== ${name} ==`);
  const suite = await SUITES[name]!();
  await suite.run();
}
