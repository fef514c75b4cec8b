/** `castnet verify address`: an Ethereum address verification, claimed by a generated or given key. */
import { type Command, Option } from "commander";
import type { Hex } from "viem";
import { type CommonOptions, contextOf, reportNaming, withOptions } from "../context.js";
import { signingActor } from "../signingActor.js";
import { UsageError } from "../../usageError.js";

export function registerVerify(program: Command): void {
  const verify = program.command("verify").description("verifications of addresses");
  withOptions(
    verify
      .command("address")
      .description("verify an Ethereum address for the account (a fresh key unless --key is given)")
      .addOption(new Option("--key <0x…>", "the address's private key")),
    // The client API says who approved a requested key (--as <token>).
    { parts: ["hub", "chain", "api"], account: true },
  ).action(async (options: CommonOptions & { key?: string }) => {
    const { generatePrivateKey } = await import("viem/accounts");
    const { verifyAddress } = await import("../writes.js");
    if (options.key !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(options.key))
      throw new UsageError("--key must be a 32-byte private key in 0x hex");
    const context = contextOf(options);
    const actor = await signingActor(context);
    const { address, message } = await verifyAddress(
      context,
      actor,
      (options.key as Hex | undefined) ?? generatePrivateKey(),
    );
    await reportNaming(
      options,
      { fid: actor.account.fid, address, hash: message.hash },
      async () =>
        `verified ${address} for ${await context.people.full(actor.account.fid)} (message ${message.hash})`,
    );
  });
}
