/**
 * The program's shape, in process: every command and subcommand answers --help with exit 0, and
 * refusals are one UsageError that points at the right help.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Command, CommanderError } from "commander";
import { UsageError } from "../../src/usageError.js";
import { buildProgram } from "../../src/cli/program.js";

function everyCommand(command: Command, path: string[] = []): string[][] {
  return command.commands.flatMap((sub) => {
    const here = [...path, sub.name()];
    return [here, ...everyCommand(sub, here)];
  });
}

/** Parses `args` with output captured; returns what was printed and what was thrown. */
async function parse(args: string[]): Promise<{ out: string; error: unknown }> {
  const program = buildProgram();
  let out = "";
  const capture = (command: Command): void => {
    command.configureOutput({ writeOut: (text) => void (out += text), outputError: () => undefined });
    command.commands.forEach(capture);
  };
  capture(program);
  try {
    await program.parseAsync(args, { from: "user" });
    return { out, error: undefined };
  } catch (error) {
    return { out, error };
  }
}

describe("the castnet program", () => {
  const commands = everyCommand(buildProgram()).filter((path) => path[path.length - 1] !== "help");

  it("has the everyday commands", () => {
    const names = commands.map((path) => path.join(" "));
    for (const expected of [
      "start",
      "account create",
      "account list",
      "account show",
      "account import",
      "account use",
      "name register",
      "name transfer",
      "name show",
      "cast",
      "cast remove",
      "react",
      "unreact",
      "follow",
      "unfollow",
      "profile set",
      "profile show",
      "verify address",
      "signer add",
      "signer remove",
      "signer list",
      "storage rent",
      "storage lend",
      "chain balance",
      "chain fund",
      "chain mine",
      "chain block",
      "chain tx",
      "key-request create",
      "key-request approve",
      "key-request show",
      "quick-auth rotate-key",
      "feed",
      "events tail",
      "channel create",
      "channel follow",
      "channel unfollow",
      "channel list",
    ])
      assert.ok(names.includes(expected), `castnet ${expected}`);
  });

  it("answers --help on every command and subcommand with its usage and exit status 0", async () => {
    for (const path of commands) {
      const { out, error } = await parse([...path, "--help"]);
      assert.ok(error instanceof CommanderError && error.exitCode === 0, `${path.join(" ")} --help`);
      assert.match(out, new RegExp(`^Usage: castnet ${path.join(" ")}`, "m"));
    }
  });

  for (const [args, message] of [
    [["launch"], 'unknown command "launch" (see castnet --help)'],
    [["account", "frob"], 'unknown command "account frob" (see castnet account --help)'],
    [["cast", "hi", "--colour", "red"], "unknown option '--colour' (see castnet cast --help)"],
    [["feed"], "missing <name|fid> (see castnet feed --help)"],
    [["storage", "rent", "1", "2"], "too many arguments (see castnet storage rent --help)"],
  ] as const) {
    it(`refuses castnet ${args.join(" ")} with one sentence pointing at the help`, async () => {
      const { error } = await parse([...args]);
      assert.ok(error instanceof UsageError, String(error));
      assert.equal(error.message, message);
    });
  }
});
