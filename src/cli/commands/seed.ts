/** `castnet seed demo`: the demo world, into a running stack. */
import type { Command } from "commander";
import { type CommonOptions, contextOf, report, withOptions } from "../context.js";
import { seedDemo, summaryLines } from "../seed/index.js";

export function registerSeed(program: Command): void {
  const seed = program.command("seed").description("fill a running stack with data");
  withOptions(
    seed
      .command("demo")
      .description(
        "a dozen accounts (kept in the keystore) with names, profiles, casts, reactions, follows, channels, actions; idempotent",
      ),
    { parts: ["chain", "registry", "hub", "api"], keystore: true },
  ).action(async (options: CommonOptions) => {
    const summary = await seedDemo(contextOf(options));
    report(options, summary, [
      ...summaryLines(summary),
      "act as any of them with --as <name>: castnet account list",
    ]);
  });
}
