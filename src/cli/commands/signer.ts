/** `castnet signer add|remove|list`: the account's Ed25519 signers, on the devchain or added by message. */
import type { Command } from "commander";
import { NEUTRAL } from "../../protocol/naming.js";
import { type CommonOptions, type Context, contextOf, report, wholeNumber, withOptions } from "../context.js";
import type { SignerJson } from "../http/hub.js";
import type { StoredAccount } from "../../wallet/keystore.js";
import { UsageError } from "../../usageError.js";

export function registerSigner(program: Command): void {
  const signer = program.command("signer").description("the Ed25519 keys that sign an account's messages");

  withOptions(
    signer
      .command("add")
      .description("add a fresh signer and sign the account's messages with it from now on")
      .option("--gasless", "add it with a KEY_ADD message the custody signs, not a KeyRegistry transaction")
      .option("--app <account>", "with --gasless: the app requesting the key (default: the account itself)")
      .option(
        "--scopes <types>",
        "with --gasless: the message types it may sign, comma-separated (default: all it may)",
      )
      .option("--ttl <seconds>", "with --gasless: how long it stays valid after its last use", "2592000"),
    { parts: ["chain", "hub"], account: true },
  ).action(async (options: AddOptions) => {
    const context = contextOf(options);
    const actor = context.actor();
    if (!options.gasless) {
      if (options.app !== undefined || options.scopes !== undefined) {
        throw new UsageError("--app and --scopes go with --gasless");
      }
      const { privateKeyToAccount } = await import("viem/accounts");
      const { addSigner } = await import("../../stack/account.js");
      const custody = privateKeyToAccount(actor.account.custodyPrivateKey);
      const added = await addSigner(context.chain, custody, actor.account.fid, NEUTRAL);
      useSigner(context, actor, added);
      return report(
        options,
        { fid: actor.account.fid, signerPublicKey: added.publicKey },
        `added signer ${added.publicKey} to ${actor.name} (fid ${actor.account.fid}), which signs with it now`,
      );
    }
    const { addGaslessSigner, parseScopes } = await import("../gaslessSigner.js");
    const { ADMISSIBLE_KEY_SCOPES } = await import("../../protocol/validation/index.js");
    const app = options.app === undefined ? actor : context.keystore().resolve(options.app);
    const scopes = options.scopes === undefined ? [...ADMISSIBLE_KEY_SCOPES] : parseScopes(options.scopes);
    const ttl = wholeNumber("--ttl", options.ttl, 1, Number.MAX_SAFE_INTEGER);
    const added = await addGaslessSigner(context, { account: actor.account, app: app.account, scopes, ttl });
    useSigner(context, actor, added);
    report(
      options,
      {
        fid: actor.account.fid,
        signerPublicKey: added.publicKey,
        requestFid: app.account.fid,
        scopes,
        ttl,
        nonce: added.nonce,
      },
      `added signer ${added.publicKey} to ${actor.name} (fid ${actor.account.fid}) by message, requested by ${app.name} (fid ${app.account.fid}); it signs with it now, for ${ttl} s after each use`,
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

  withOptions(
    signer.command("list").description("the account's active signers, on chain and added by message"),
    {
      parts: ["hub"],
      account: true,
    },
  ).action(async (options: CommonOptions) => {
    const context = contextOf(options);
    const actor = context.actor();
    const signers: SignerJson[] = [];
    let pageToken: string | undefined;
    do {
      const page = await context.hub.signersByFid(actor.account.fid, pageToken);
      signers.push(...page.signers);
      pageToken = page.nextPageToken;
    } while (pageToken !== undefined);
    const listed = signers.map((s) => ({
      key: s.key,
      source: s.source === "SIGNER_SOURCE_ONCHAIN" ? "chain" : "message",
      ...(s.scopes === undefined
        ? {}
        : { scopes: s.scopes, expiresAt: s.expiresAt, requestFid: s.requestFid }),
      inKeystore: s.key === actor.account.signerPublicKey,
    }));
    report(
      options,
      { fid: actor.account.fid, signers: listed },
      listed.map(
        (s) =>
          `${s.inKeystore ? "*" : " "} ${s.key} ${s.source === "chain" ? "on chain" : `by message (app fid ${s.requestFid}), until ${new Date(s.expiresAt! * 1000).toISOString()} unless used: ${s.scopes!.map((n) => n.replace("MESSAGE_TYPE_", "").toLowerCase().replaceAll("_", "-")).join(", ")}`}`,
      ),
    );
  });
}

interface AddOptions extends CommonOptions {
  gasless?: boolean;
  app?: string;
  scopes?: string;
  ttl: string;
}

/** Keeps the new key as the one the account signs with. */
function useSigner(
  context: Context,
  actor: { name: string; account: StoredAccount },
  added: { publicKey: `0x${string}`; privateKey: `0x${string}` },
): void {
  context.keystore().update(actor.name, {
    ...actor.account,
    signerPublicKey: added.publicKey,
    signerPrivateKey: added.privateKey,
  });
}
