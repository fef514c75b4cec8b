/** `castnet key-request create|approve|show`: the signed key request flow from both sides. */
import { type Command, Option } from "commander";
import type { Hex } from "viem";
import { readApprovalKey } from "../../wallet/approvalKey.js";
import { type CommonOptions, contextOf, reportNaming, withOptions } from "../context.js";
import { castnetCommand } from "../invocation.js";
import { UsageError } from "../../usageError.js";

interface ApproveOptions extends CommonOptions {
  fid?: string;
  custodyKey?: string;
  realNetworkDomain?: boolean;
}

export function registerKeyRequest(program: Command): void {
  const keyRequest = program
    .command("key-request")
    .description("signed key requests (an app asking to sign for a user)");

  withOptions(
    keyRequest
      .command("create")
      .description("as an app: ask for a fresh key to sign for a user; prints the deep link and its QR code")
      .requiredOption("--app <account>", "the app's account in the keystore")
      .addOption(new Option("--redirect-url <url>", "where the user's wallet sends them afterwards")),
    // The hub names the fids.
    { parts: ["api", "hub"], keystore: true },
  ).action(async (options: CommonOptions & { app: string; redirectUrl?: string }) => {
    const { renderUnicodeCompact } = await import("uqr");
    const { requestKey } = await import("../writes.js");
    const context = contextOf(options);
    const app = context.keystore().get(options.app);
    const signedKeyRequest = await requestKey(context, options.app, options.redirectUrl);
    const publicKey = signedKeyRequest.key;
    // Only the data directory's owner reads the approval key, so only they get the link that offers the keystore.
    const approvalKey = readApprovalKey(context.keystore().dataDir);
    const keystoreLink =
      approvalKey === undefined
        ? []
        : [
            `approve it in your browser with a keystore account (this link is yours alone): ${context.api.base}/approve?token=${encodeURIComponent(signedKeyRequest.token)}&key=${approvalKey}`,
          ];
    await reportNaming(options, signedKeyRequest, async () => [
      `key request ${signedKeyRequest.token} by ${await context.people.full(app.fid)} for key ${publicKey}`,
      `deep link: ${signedKeyRequest.deeplinkUrl}`,
      renderUnicodeCompact(signedKeyRequest.deeplinkUrl),
      ...keystoreLink,
      `approve it as a user: ${castnetCommand(`key-request approve ${signedKeyRequest.token} --as <account>`)}`,
      `once it is completed, the app signs with its key for that user: ${castnetCommand(`cast "…" --as ${signedKeyRequest.token}`)}`,
    ]);
  });

  withOptions(
    keyRequest
      .command("approve <token>")
      .description("as a user: approve a request with the account's custody key")
      .addOption(new Option("--fid <fid>", "the approving fid, with --custody-key, instead of --as"))
      .addOption(new Option("--custody-key <0x…>", "that fid's custody private key"))
      .addOption(
        new Option(
          "--real-network-domain",
          "sign even under the real network's key gateway domain (--naming reference): only with development keys",
        ),
      ),
    // The hub names the fid.
    { parts: ["api", "hub"], account: true },
  ).action(async (token: string, options: ApproveOptions) => {
    const { approveKeyRequest } = await import("../../wallet/keyRequestApproval.js");
    const context = contextOf(options);
    let fid: number;
    let custodyPrivateKey: Hex;
    if (options.fid !== undefined || options.custodyKey !== undefined) {
      fid = Number(options.fid);
      if (!Number.isInteger(fid) || fid < 1) throw new UsageError("--fid must be the approving user's fid");
      if (!options.custodyKey || !/^0x[0-9a-fA-F]{64}$/.test(options.custodyKey))
        throw new UsageError("--custody-key must be the user's 32-byte custody private key in 0x hex");
      custodyPrivateKey = options.custodyKey as Hex;
    } else {
      const { account } = context.actor();
      fid = account.fid;
      custodyPrivateKey = account.custodyPrivateKey;
    }
    const approved = await approveKeyRequest({
      apiUrl: context.api.base,
      token,
      fid,
      custodyPrivateKey,
      realNetworkDomain: options.realNetworkDomain,
    });
    await reportNaming(
      options,
      approved,
      async () => `key request ${token} is ${approved.state} for ${await context.people.full(fid)}`,
    );
  });

  withOptions(keyRequest.command("show <token>").description("a request's state"), {
    // The hub names the fids.
    parts: ["api", "hub"],
  }).action(async (token: string, options: CommonOptions) => {
    const context = contextOf(options);
    const { signedKeyRequest } = await context.api.keyRequest(token);
    const { userFid, requestFid } = signedKeyRequest;
    await reportNaming(options, signedKeyRequest, async () => {
      const [app, user] = await context.people.fullEach([requestFid, ...(userFid ? [userFid] : [])]);
      return `key request ${token}: ${signedKeyRequest.state}${user ? ` for ${user}` : ""}, key ${signedKeyRequest.key}, by ${app}`;
    });
  });
}
