#!/usr/bin/env -S node --max-semi-space-size=64
/**
 * The `castnet` command: builds the program from one module per command group and runs it. A bad
 * command line is one line on stderr and exit 2; a failure at run time is one line and exit 1.
 *
 * The first line gives V8 semi-spaces of up to 64 MiB (16 by default): a hub's list page is a string
 * of about 100 KB, and with the default the pages in flight outlived the young generation, so the
 * garbage collector took more CPU than the reads themselves (docs/performance.md).
 */
import { type Command, CommanderError } from "commander";
import { DevchainError } from "../interfaces/chainErrors.js";
import { StartupError } from "../http/listen.js";
import { CliError } from "./http/request.js";
import { UsageError } from "../usageError.js";
import { refuseDashValues } from "../stack/usage.js";
import { buildProgram } from "./program.js";

/** The command the arguments name, for checks commander cannot make (values that start with "-"). */
function commandOf(program: Command, argv: readonly string[]): { command: Command; args: string[] } {
  let command = program;
  let rest = [...argv];
  for (;;) {
    const sub = command.commands.find((c) => c.name() === rest[0]);
    if (!sub) return { command, args: rest };
    command = sub;
    rest = rest.slice(1);
  }
}

/** One line for any failure; DevchainError's unreachable devchain in the words every part uses. */
function messageOf(error: unknown): string {
  if (error instanceof DevchainError && error.code === "chain_unavailable") {
    const at = /^the devchain at (\S+) is unreachable/.exec(error.message);
    if (at) return `cannot reach the devchain at ${at[1]}: is castnet running?`;
  }
  return error instanceof Error ? error.message : String(error);
}

async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  if (argv.length === 0) return void program.outputHelp();
  const { command, args } = commandOf(program, argv);
  refuseDashValues(command, args);
  await program.parseAsync(argv, { from: "user" });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CommanderError && error.exitCode === 0) process.exit(0);
  console.error(`castnet: ${messageOf(error)}`);
  // Failures castnet words itself need no stack; anything else shows one with CASTNET_DEBUG.
  const worded = error instanceof UsageError || error instanceof StartupError || error instanceof CliError;
  if (process.env.CASTNET_DEBUG && !worded) console.error(error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
