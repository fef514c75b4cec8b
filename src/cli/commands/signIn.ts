/** `castnet sign-in approve`: complete an app's Sign In With Farcaster channel as the user's client app. */
import { type Command, Option } from "commander";
import type { Hex } from "viem";
import { CliError } from "../http/request.js";
import { type CommonOptions, contextOf, reportNaming, withOptions } from "../context.js";
import { UsageError } from "../../usageError.js";

interface ApproveOptions extends CommonOptions {
  fid?: string;
  custodyKey?: string;
}

export function registerSignIn(program: Command): void {
  const signIn = program
    .command("sign-in")
    .description("Sign In With Farcaster (an app asking a user to sign in)");

  withOptions(
    signIn
      .command("approve <channel>")
      .description(
        "as a user: sign in to the app whose channel this is (its token or url), with the custody key",
      )
      .addOption(new Option("--fid <fid>", "the fid signing in, with --custody-key, instead of --as"))
      .addOption(new Option("--custody-key <0x…>", "that fid's custody private key")),
    // The hub names the fid.
    { parts: ["api", "hub"], account: true },
  ).action(async (channel: string, options: ApproveOptions) => {
    const { approveSignIn } = await import("../../wallet/signInApproval.js");
    const { relayKey } = await import("../../stack/relayKey.js");
    const context = contextOf(options);
    let fid: number;
    let privateKey: Hex;
    if (options.fid !== undefined || options.custodyKey !== undefined) {
      fid = Number(options.fid);
      if (!Number.isInteger(fid) || fid < 1) throw new UsageError("--fid must be the fid signing in");
      if (!options.custodyKey || !/^0x[0-9a-fA-F]{64}$/.test(options.custodyKey))
        throw new UsageError("--custody-key must be the user's 32-byte custody private key in 0x hex");
      privateKey = options.custodyKey as Hex;
    } else {
      const { account } = context.actor();
      fid = account.fid;
      privateKey = account.custodyPrivateKey;
    }
    // Read from the data directory's file: the key is never an argument, so never in a shell's history or ps.
    const key = relayKey.read(options.dataDir!);
    if (key === undefined)
      throw new CliError(
        `no sign-in relay key in ${relayKey.path(options.dataDir!)}: castnet start makes it there; run this command with the data directory of the castnet that serves the channel`,
      );
    const completed = await approveSignIn({
      apiUrl: context.api.base,
      channel,
      fid,
      privateKey,
      relayKey: key,
    });
    await reportNaming(
      options,
      completed,
      async () =>
        `signed in to ${completed.signatureParams.domain} as ${await context.people.full(fid)} (${completed.authMethod === "custody" ? "custody address" : "auth address"}); the app sees it at its next status read`,
    );
  });
}
