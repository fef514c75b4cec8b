/**
 * The `castnet` program: one module per command group registers its commands. Every command throws
 * instead of exiting, its refusals already worded as one UsageError (main.ts prints them). Actions
 * import what is heavy (viem, the servers, the databases) when they run, so that `--help` and the
 * small commands start without loading it.
 */
import { Command } from "commander";
import { registerAccount } from "./commands/account.js";
import { registerCast } from "./commands/cast.js";
import { registerChain } from "./commands/chain.js";
import { registerChannel } from "./commands/channel.js";
import { registerEvents } from "./commands/events.js";
import { registerFeed } from "./commands/feed.js";
import { registerFollow } from "./commands/follow.js";
import { registerKeyRequest } from "./commands/keyRequest.js";
import { registerSignIn } from "./commands/signIn.js";
import { registerMaintenance } from "./commands/maintenance.js";
import { registerNameCommands } from "./commands/name.js";
import { registerProfile } from "./commands/profile.js";
import { registerQuickAuth } from "./commands/quickAuth.js";
import { registerReact } from "./commands/react.js";
import { registerSeed } from "./commands/seed.js";
import { registerSigner } from "./commands/signer.js";
import { registerStatus } from "./commands/status.js";
import { registerStart } from "./commands/start.js";
import { registerStorage } from "./commands/storage.js";
import { registerVerify } from "./commands/verify.js";
import { usageErrorOf } from "../stack/usage.js";
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
  castnet profile show <name|fid>                its display name, bio, picture, url, username
  castnet events tail                            follow the hub's events
  castnet chain balance|fund|mine|block|tx       the devchain: ether, blocks, transactions
  castnet key-request approve <token> --as A     approve a signed key request as the user
  castnet seed demo                              fill the running stack with a demo world
  castnet status | backup <dir> | reset          the stack's parts, a copy of its data, a fresh start`;

export function buildProgram(): Command {
  const program = new Command("castnet")
    .description("castnet: the whole open social protocol stack on your machine")
    .version(version(), "-v, --version")
    // A group's options (cast --json) must not swallow its subcommand's (cast remove --json).
    .enablePositionalOptions()
    .addHelpText("after", EVERYDAY);
  for (const register of [
    registerStart,
    registerAccount,
    registerNameCommands,
    registerCast,
    registerReact,
    registerFollow,
    registerProfile,
    registerVerify,
    registerSigner,
    registerStorage,
    registerChain,
    registerKeyRequest,
    registerSignIn,
    registerQuickAuth,
    registerFeed,
    registerEvents,
    registerChannel,
    registerSeed,
    registerStatus,
    registerMaintenance,
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
