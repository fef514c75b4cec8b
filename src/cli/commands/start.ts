/** `castnet start`: the four parts in one process. */
import { type Command, Option } from "commander";
import { addStartOptions, startConfigOf } from "../../stack/options.js";
import type { RunningStack } from "../../stack/stack.js";
import { version } from "../version.js";

const LABELS = { registry: "registry  ", hub: "hub       ", api: "client API", chain: "devchain  " } as const;

export function registerStart(program: Command): void {
  const start = program
    .command("start")
    .description("run the registry, hub, client API and devchain, each on its own port")
    .addHelpText(
      "before",
      "Starts the name registry, hub, client API and devchain in one process, each on its own port,\n" +
        "with embedded SQLite databases in the data directory, or in PostgreSQL when DATABASE_URL is set.\n",
    );
  addStartOptions(start)
    .addOption(
      new Option("--print-config", "print the configuration flags, environment and file make, and exit"),
    )
    .action(async (options: { printConfig?: boolean }, command: Command) => {
      const { createLogger } = await import("../../http/index.js");
      const { startStack } = await import("../../stack/stack.js");
      const { catchUpLines, migrationLines } = await import("../startProgress.js");
      const { seedOnStart } = await import("../seedOnStart.js");
      const config = startConfigOf(command);
      if (options.printConfig) {
        const secret = (value: string | undefined) => (value === undefined ? undefined : "(set)");
        const shown = { ...config, adminToken: secret(config.adminToken), rpcAuth: secret(config.rpcAuth) };
        // Wei amounts are bigints, which JSON has no number for: decimal strings, as in the run file.
        const json = (_: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);
        return void console.log(JSON.stringify(shown, json, 2));
      }
      // Signals are handled before anything starts: a Ctrl+C or a SIGTERM during the migrations or
      // the seed stops the start cleanly (startStack closes the databases, removing their WAL files,
      // and the run file) instead of killing the process mid-write. Once it runs, whoever waits for
      // the banner and then stops castnet (a script, a process manager) finds them handled too.
      const stopping = new AbortController();
      let stack: RunningStack | undefined;
      const stopped = () => {
        console.log("castnet stopped");
        process.exit(0);
      };
      const closeAndExit = (running: RunningStack) =>
        running.close().then(stopped, (error: unknown) => {
          console.error(`castnet: error while stopping: ${(error as Error).message}`);
          process.exit(1);
        });
      const stop = (signal: NodeJS.Signals) => {
        if (stopping.signal.aborted) return;
        console.log(`\n${signal}: stopping castnet…`);
        stopping.abort();
        // Before the stack runs, startStack sees the abort at its next step and closes what it started.
        if (stack !== undefined) void closeAndExit(stack);
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);

      // A person at a terminal reads lines, not JSON.
      const pretty = process.stderr.isTTY === true;
      try {
        stack = await startStack(config, createLogger(config.logLevel, pretty), {
          migrations: (part) => migrationLines(part),
          catchUp: catchUpLines(),
          afterListen: seedOnStart(config),
          signal: stopping.signal,
        });
      } catch (error) {
        if (stopping.signal.aborted) return stopped();
        throw error;
      }
      // Stopped as the start ended, after its last look at the signal.
      if (stopping.signal.aborted) return void closeAndExit(stack);

      const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `SQLite in ${config.dataDir}`;
      console.log(
        `castnet ${version()} is running; data: ${where}; naming: ${config.naming}; network: ${config.network}`,
      );
      if (config.dataDirFound !== undefined)
        console.log(`  data dir    ${config.dataDir} (${config.dataDirFound})`);
      if (config.configFile !== undefined)
        console.log(`  config      ${config.configFile.path} (${config.configFile.from})`);
      for (const { setting, value, from } of config.security)
        console.log(`  security    ${setting} ${value} (${from})`);
      for (const [part, url] of Object.entries(stack.urls))
        console.log(`  ${LABELS[part as keyof typeof LABELS]}  ${url}`);
      if (stack.hubGrpc !== undefined) console.log(`  hub gRPC    ${stack.hubGrpc}`);
      if (stack.urls.api !== undefined) console.log(`  explorer    ${stack.urls.api}/`);
      console.log("Press Ctrl+C to stop.");
    });
}
