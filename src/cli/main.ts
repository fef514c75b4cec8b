#!/usr/bin/env node
/**
 * The `castnet` command: builds the program from one module per command group and runs it. A bad
 * command line is one line on stderr and exit 2; a failure at run time is one line and exit 1.
 */
import { Command, CommanderError } from "commander";
import { ChainError } from "../devchain/errors.js";
import { StartupError } from "../http/index.js";
import { registerAccount } from "./commands/account.js";
import { registerCast } from "./commands/cast.js";
import { registerChannel } from "./commands/channel.js";
import { registerEvents } from "./commands/events.js";
import { registerFeed } from "./commands/feed.js";
import { registerFollow } from "./commands/follow.js";
import { registerKeyRequest } from "./commands/keyRequest.js";
import { registerName } from "./commands/name.js";
import { registerProfile } from "./commands/profile.js";
import { registerReact } from "./commands/react.js";
import { registerSigner } from "./commands/signer.js";
import { registerStart } from "./commands/start.js";
import { registerStorage } from "./commands/storage.js";
import { registerVerify } from "./commands/verify.js";
import { CliError } from "./http/request.js";
import { UsageError, refuseDashValues, usageErrorOf } from "./options.js";
import { version } from "./version.js";

const EVERYDAY = `
Everyday, against a running castnet (castnet <command> --help for each):
  castnet start [options]                        run registry, hub, client API and devchain
  castnet account create [name] [--units N]      make a dev account: custody key, fid, storage, signer
  castnet account list | show <name> | use <name> | import <name> --custody-key 0x...
  castnet name register <name> --as A            claim a name and make it A's username
  castnet cast "<text>" --as A                   post a cast (--reply-to, --channel, --embed, --mention)
  castnet react like|recast <fid>:<hash> --as A  and unreact, follow, unfollow, profile set, verify address
  castnet feed <name|fid>                        casts of a fid, newest first
  castnet events tail                            follow the hub's events
  castnet key-request approve <token> --as A     approve a signed key request as the user`;

export function buildProgram(): Command {
  const program = new Command("castnet")
    .description("castnet: the whole open social protocol stack on your machine")
    .version(version(), "-v, --version")
    .addHelpText("after", EVERYDAY);
  for (const register of [
    registerStart,
    registerAccount,
    registerName,
    registerCast,
    registerReact,
    registerFollow,
    registerProfile,
    registerVerify,
    registerSigner,
    registerStorage,
    registerKeyRequest,
    registerFeed,
    registerEvents,
    registerChannel,
  ])
    register(program);
  overrideExits(program, "castnet");
  return program;
}

/** Every command throws instead of exiting, with refusals already worded as one UsageError. */
function overrideExits(command: Command, path: string): void {
  command.exitOverride((error) => {
    throw error.exitCode === 0 ? error : usageErrorOf(error, path);
  });
  command.configureOutput({ outputError: () => undefined });
  for (const sub of command.commands) overrideExits(sub, `${path} ${sub.name()}`);
}

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

/** One line for any failure; ChainError's unreachable devchain in the words every part uses. */
function messageOf(error: unknown): string {
  if (error instanceof ChainError && error.code === "chain_unavailable") {
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
