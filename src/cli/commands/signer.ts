/** `castnet signer add|remove|list`: the account's Ed25519 signers on the devchain. */
import type { Command } from "commander";
import { NEUTRAL } from "../../protocol/naming.js";
import { type CommonOptions, contextOf, report, withOptions } from "../context.js";
import { CliError } from "../http/request.js";
import { UsageError } from "../../usageError.js";

export function registerSigner(program: Command): void {
  const signer = program.command("signer").description("the Ed25519 keys that sign an account's messages");

  withOptions(
    signer
      .command("add")
      .description("add a fresh signer and sign the account's messages with it from now on"),
    { parts: ["chain"], account: true },
  ).action(async (options: CommonOptions) => {
    const { privateKeyToAccount } = await import("viem/accounts");
    const { addSigner } = await import("../../stack/account.js");
    const context = contextOf(options);
    const actor = context.actor();
    const custody = privateKeyToAccount(actor.account.custodyPrivateKey);
    const added = await addSigner(context.chain, custody, actor.account.fid, NEUTRAL);
    context.keystore().update(actor.name, {
      ...actor.account,
      signerPublicKey: added.publicKey,
      signerPrivateKey: added.privateKey,
    });
    report(
      options,
      { fid: actor.account.fid, signerPublicKey: added.publicKey },
      `added signer ${added.publicKey} to ${actor.name} (fid ${actor.account.fid}), which signs with it now`,
    );
  });

  withOptions(signer.command("remove <key>").description("remove a signer (its messages go with it)"), {
    parts: ["chain"],
    account: true,
  }).action(async (key: string, options: CommonOptions) => {
    if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new UsageError("a signer key is 0x and 64 hex digits");
    const context = contextOf(options);
    const actor = context.actor();
    const event = await context.chain.removeKey(actor.account.fid, key.toLowerCase() as `0x${string}`);
    if (actor.account.signerPublicKey === key.toLowerCase()) {
      const { signerPublicKey: _public, signerPrivateKey: _private, ...rest } = actor.account;
      context.keystore().update(actor.name, rest);
    }
    report(
      options,
      { fid: actor.account.fid, removed: key.toLowerCase(), blockNumber: event.blockNumber },
      `removed signer ${key.toLowerCase()} from ${actor.name} (fid ${actor.account.fid}) (block ${event.blockNumber})`,
    );
  });

  withOptions(signer.command("list").description("the account's active signers"), {
    parts: ["chain"],
    account: true,
  }).action(async (options: CommonOptions) => {
    const context = contextOf(options);
    const actor = context.actor();
    const account = await context.chain.getAccount(actor.account.fid);
    if (account === undefined) throw new CliError(`fid ${actor.account.fid} is not on the devchain`);
    const signers = account.signers.map((s) => ({
      key: s.key,
      inKeystore: s.key === actor.account.signerPublicKey,
    }));
    report(
      options,
      { fid: actor.account.fid, signers },
      signers.map((s) => `${s.inKeystore ? "*" : " "} ${s.key}`),
    );
  });
}
