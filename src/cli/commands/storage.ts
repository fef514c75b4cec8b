/** `castnet storage rent <units>` (the devchain) and `castnet storage lend` (a LEND_STORAGE message to the hub). */
import { type Command, Option } from "commander";
import { type CommonOptions, contextOf, report, reportNaming, wholeNumber, withOptions } from "../context.js";
import { CliError } from "../http/request.js";
import { resolveFid } from "../targets.js";
import { SocialNetwork } from "../../protocol/generated/message.js";
import { MAX_LEND_UNITS } from "../../protocol/validation/lendStorage.js";

type LendOptions = CommonOptions & { to: string; units: string; unitType: "legacy" | "2024" | "2025" };

export function registerStorage(program: Command): void {
  const storage = program
    .command("storage")
    .description("storage units: rented on the devchain, lent at the hub");
  withOptions(storage.command("rent <units>").description("rent storage units for the account"), {
    parts: ["chain"],
    account: true,
  }).action(async (given: string, options: CommonOptions) => {
    const units = wholeNumber("units", given, 1, 1000);
    const context = contextOf(options);
    const actor = context.actor();
    const event = await context.chain.rentStorage(actor.account.fid, units);
    const total = (await context.chain.getAccount(actor.account.fid))?.storageUnits;
    report(
      options,
      { fid: actor.account.fid, rented: units, storageUnits: total, blockNumber: event.blockNumber },
      `rented ${units} storage unit(s) for ${actor.name} (fid ${actor.account.fid}); it has ${total} (block ${event.blockNumber})`,
    );
  });

  withOptions(
    storage
      .command("lend")
      .description(
        "lend storage units to another fid, replacing the account's loan to it (--units 0 takes them back)",
      )
      .requiredOption("--to <name|fid>", "the fid that borrows: a fid, a registered name or an account")
      .requiredOption("--units <n>", `units lent, 0 to ${MAX_LEND_UNITS}`)
      .addOption(
        new Option("--unit-type <type>", "the cohort of the units: castnet rents 2024 units")
          .choices(["legacy", "2024", "2025"])
          .default("2024"),
      ),
    { parts: ["hub", "registry"], account: true },
  ).action(async (options: LendOptions) => {
    const units = wholeNumber("--units", options.units, 0, MAX_LEND_UNITS);
    const context = contextOf(options);
    const actor = context.actor();
    const toFid = await resolveFid(context, options.to);
    const { lendStorage } = await import("../writes.js");
    const message = await lendStorage(context, actor, toFid, units, options.unitType).catch(
      (error: unknown) => {
        // The hub's sentence is the successor's, which names neither rule it enforces.
        if (!(error instanceof CliError) || !error.message.endsWith("insufficient storage")) throw error;
        const mainnet =
          context.network === SocialNetwork.MAINNET ? ", and on mainnet rents at least 1000 of it" : "";
        throw new CliError(
          `${error.message}: a lender keeps a unit of the type it lends spare${mainnet} (castnet storage rent)`,
          error.status,
        );
      },
    );
    await reportNaming(
      options,
      { fid: actor.account.fid, to: toFid, units, unitType: options.unitType, hash: message.hash },
      async () => {
        const [who, whom] = await context.people.fullEach([actor.account.fid, toFid]);
        return units === 0
          ? `${who} takes back the storage lent to ${whom} (message ${message.hash})`
          : `${who} lends ${units} ${options.unitType} storage unit(s) to ${whom} (message ${message.hash})`;
      },
    );
  });
}
