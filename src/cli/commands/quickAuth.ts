/** `castnet quick-auth rotate-key`: the operator's rotation of the client API's Quick Auth signing key. */
import type { Command } from "commander";
import { type CommonOptions, contextOf, report, withOptions } from "../context.js";

const time = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

export function registerQuickAuth(program: Command): void {
  const quickAuth = program
    .command("quick-auth")
    .description("the client API's Quick Auth server (sign-in tokens for mini apps)");

  withOptions(
    quickAuth
      .command("rotate-key")
      .description(
        "make a new signing key (an operator write): it signs a minute later, and the old key stays in the key set until its tokens expire",
      ),
    { parts: ["api"] },
  ).action(async (options: CommonOptions) => {
    const { keys } = await contextOf(options).api.rotateQuickAuthKey();
    report(
      options,
      { keys },
      keys.map((key) =>
        key.retiredAt === undefined
          ? `new key ${key.kid}: signs from ${time(key.signsFrom)}`
          : `key ${key.kid}: signs until ${time(key.retiredAt)}, then stays in the key set an hour, until its tokens expire`,
      ),
    );
  });
}
