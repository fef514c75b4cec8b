/** `castnet storage rent <units>`. */
import type { Command } from "commander";
import { type CommonOptions, contextOf, report, wholeNumber, withOptions } from "../context.js";

export function registerStorage(program: Command): void {
  const storage = program.command("storage").description("storage units on the devchain");
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
}
