/** Command lines commander refuses, and one it accepts but castnet does not, as one UsageError. */
import type { Command, CommanderError } from "commander";
import { UsageError } from "../usageError.js";

/**
 * A commander refusal as one short sentence that points at the help of the command it came from
 * (`path`: "castnet", "castnet account", …).
 */
export function usageErrorOf(error: CommanderError, path: string): UsageError {
  const message = error.message.split("\n")[0]!.replace(/^error: /, "");
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? "";
  const help = `${path} --help`;
  switch (error.code) {
    case "commander.unknownOption":
      return new UsageError(`unknown option '${quoted}' (see ${help})`);
    case "commander.unknownCommand": {
      const command = [...path.split(" ").slice(1), quoted].join(" ");
      return new UsageError(`unknown command "${command}" (see ${help})`);
    }
    case "commander.excessArguments":
      return new UsageError(`too many arguments (see ${help})`);
    case "commander.missingArgument":
      return new UsageError(`missing <${quoted}> (see ${help})`);
    default:
      return new UsageError(`${message} (see ${help})`);
  }
}

/**
 * `--flag -1` is refused rather than read either way: a value that starts with "-" is more often a
 * forgotten value followed by the next flag than a value. `--flag=-1` says which is meant.
 */
export function refuseDashValues(command: Command, args: readonly string[]): void {
  const taking = new Set(command.options.filter((o) => o.required || o.optional).map((o) => o.long));
  for (let i = 0; i < args.length - 1; i++) {
    if (taking.has(args[i]) && args[i + 1]!.startsWith("-") && args[i + 1] !== "-")
      throw new UsageError(`write ${args[i]}=<value> when the value starts with "-"`);
  }
}
