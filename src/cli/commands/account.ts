/** `castnet account …`: accounts on the devchain, kept by name in the keystore. */
import { type Command, Option } from "commander";
import type { Hex } from "viem";
import { fromHex, toHex } from "../../protocol/hex.js";
import { type CommonOptions, contextOf, report, reportNaming, wholeNumber, withOptions } from "../context.js";
import { CliError } from "../http/request.js";
import type { StoredAccount } from "../../wallet/keystore.js";
import { UsageError } from "../../usageError.js";

const KEY = /^0x[0-9a-fA-F]{64}$/;

/** What may be printed of an account without --reveal: no private key. */
function visible(name: string, account: StoredAccount, current: string | undefined) {
  return {
    name,
    fid: account.fid,
    custodyAddress: account.custodyAddress,
    signerPublicKey: account.signerPublicKey ?? null,
    current: name === current,
  };
}

function privateKey(flag: string, value: string): Hex {
  if (!KEY.test(value)) throw new UsageError(`${flag} must be a 32-byte private key in 0x hex`);
  return value.toLowerCase() as Hex;
}

export function registerAccount(program: Command): void {
  const account = program.command("account").description("development accounts, kept by name");

  withOptions(
    account
      .command("create [name]")
      .description("register a fid on the devchain with storage and a signer, and keep it by name")
      .addOption(new Option("--units <n>", "storage units to rent").default("1")),
    { parts: ["chain"], keystore: true },
  ).action(async (given: string | undefined, options: CommonOptions & { units: string }) => {
    const { createAccount } = await import("../../stack/account.js");
    const { formatEther } = await import("viem");
    const context = contextOf(options);
    const keystore = context.keystore();
    const name = given ?? keystore.freeName();
    if (keystore.has(name)) throw new UsageError(`an account named "${name}" already exists`);
    const units = wholeNumber("--units", options.units, 1, 1000);
    const created = await createAccount({
      chainUrl: options.chainUrl!,
      units,
      adminToken: options.adminToken,
      balance: context.devBalance,
    });
    const stored: StoredAccount = {
      fid: created.fid,
      custodyAddress: created.custodyAddress,
      custodyPrivateKey: created.custodyPrivateKey,
      signerPublicKey: created.signerPublicKey,
      signerPrivateKey: created.signerPrivateKey,
    };
    keystore.add(name, stored);
    report(
      options,
      {
        ...visible(name, stored, keystore.current()),
        storageUnits: units,
        balance: created.balance.toString(),
        keystore: keystore.path,
      },
      `created account ${name}: fid ${created.fid}, custody ${created.custodyAddress} with ${formatEther(created.balance)} ETH, ${units} storage unit(s), signer ${created.signerPublicKey}`,
    );
  });

  withOptions(account.command("list").description("the accounts of the keystore"), {
    // The hub names each account's fid.
    parts: ["hub"],
    keystore: true,
  }).action(async (options: CommonOptions) => {
    const context = contextOf(options);
    // Listing the keystore writes nothing: it lists whatever stack the URLs name.
    const keystore = context.localKeystore();
    const accounts = keystore.names().map((name) => visible(name, keystore.get(name), keystore.current()));
    await reportNaming(options, { accounts }, async () => {
      if (accounts.length === 0) return "no accounts yet: castnet account create <name>";
      // Another stack's hub would name other people: only that of the stack the keystore serves names them.
      const named = options.keystoreRefusal === undefined;
      const people = named
        ? await context.people.fullEach(accounts.map((a) => a.fid))
        : accounts.map((a) => `fid ${a.fid}`);
      const width = Math.max(...people.map((person) => person.length));
      return accounts.map(
        (a, i) =>
          `${a.current ? "*" : " "} ${a.name.padEnd(16)} ${people[i]!.padEnd(width)}  ${a.custodyAddress}`,
      );
    });
  });

  withOptions(
    account
      .command("show <name>")
      .description("an account's fid and addresses (and its private keys with --reveal)")
      .addOption(new Option("--reveal", "also print the private keys")),
    { keystore: true },
  ).action((name: string, options: CommonOptions & { reveal?: boolean }) => {
    const keystore = contextOf(options).keystore();
    const stored = keystore.get(name);
    const shown = {
      ...visible(name, stored, keystore.current()),
      ...(options.reveal
        ? { custodyPrivateKey: stored.custodyPrivateKey, signerPrivateKey: stored.signerPrivateKey ?? null }
        : {}),
    };
    report(
      options,
      shown,
      Object.entries(shown).map(([key, value]) => `${key.padEnd(18)} ${String(value)}`),
    );
  });

  withOptions(
    account
      .command("import <name>")
      .description("keep an existing fid's keys in the keystore")
      .requiredOption("--custody-key <0x…>", "the fid's custody private key")
      .addOption(new Option("--signer-key <0x…>", "an active Ed25519 signer's 32-byte private key")),
    { parts: ["chain"], keystore: true },
  ).action(async (name: string, options: CommonOptions & { custodyKey: string; signerKey?: string }) => {
    const { privateKeyToAccount } = await import("viem/accounts");
    const { ed25519PublicKey } = await import("../../protocol/ed25519.js");
    const context = contextOf(options);
    const custodyPrivateKey = privateKey("--custody-key", options.custodyKey);
    const custodyAddress = privateKeyToAccount(custodyPrivateKey).address;
    const fid = await context.chain.fidOf(custodyAddress);
    if (fid === undefined)
      throw new CliError(`${custodyAddress} is the custody address of no fid on the devchain`);
    const stored: StoredAccount = { fid, custodyAddress, custodyPrivateKey };
    if (options.signerKey !== undefined) {
      stored.signerPrivateKey = privateKey("--signer-key", options.signerKey);
      stored.signerPublicKey = toHex(ed25519PublicKey(fromHex(stored.signerPrivateKey)));
      const signers = (await context.chain.getAccount(fid))?.signers ?? [];
      if (!signers.some((s) => s.key.toLowerCase() === stored.signerPublicKey))
        throw new CliError(`${stored.signerPublicKey} is not an active signer of fid ${fid}`);
    }
    const keystore = context.keystore();
    keystore.add(name, stored);
    report(options, visible(name, stored, keystore.current()), `imported account ${name}: fid ${fid}`);
  });

  withOptions(account.command("use <name>").description("make <name> the account that acts by default"), {
    keystore: true,
    json: false,
  }).action((name: string, options: CommonOptions) => {
    contextOf(options).keystore().use(name);
    console.log(`account ${name} now acts by default`);
  });
}
