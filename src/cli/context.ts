/**
 * What every everyday command shares: the data directory and the parts' URLs (whichStack.ts finds
 * the stack), the keystore, `--as`, `--json`, and how a result is printed.
 */
import { type Command, Option } from "commander";
import { httpChainClient } from "../interfaces/chainHttp.js";
import { SocialNetwork } from "../protocol/generated/message.js";
import { clientApiClient } from "./http/clientApi.js";
import { hubClient } from "./http/hub.js";
import { registryClient } from "./http/registry.js";
import { Keystore, type StoredAccount } from "../wallet/keystore.js";
import { DEFAULT_DATA_DIR } from "../stack/dataDir.js";
import { START_OPTIONS } from "../stack/options.js";
import { ether } from "../stack/optionValues.js";
import { type PartName, PARTS } from "../stack/parts.js";
import { UsageError } from "../usageError.js";
import { CliError } from "./http/request.js";
import { People } from "./people.js";
import { chooseStack, defaultUrl, type GivenUrl } from "./whichStack.js";

const urlOption = (part: PartName) => `${part}Url` as const;

/**
 * The options a command takes: the parts it calls, the keystore (to name accounts), an account that
 * acts (`--as`, which needs the keystore), --json. Every command takes --data-dir: the stack it
 * talks to is the one running there. Before the action, a hook fills in the data directory and each
 * part's URL that was not given, and prints on stderr what the user may not expect of them.
 */
export function withOptions(
  command: Command,
  {
    parts = [],
    keystore = false,
    account = false,
    json = true,
  }: { parts?: PartName[]; keystore?: boolean; account?: boolean; json?: boolean },
): Command {
  for (const part of parts) {
    command.addOption(
      new Option(
        `--${part}-url <url>`,
        `the ${PARTS[part].title} (default: that of the castnet running on the data directory, else ${defaultUrl(part)})`,
      ).env(`CASTNET_${part.toUpperCase()}_URL`),
    );
  }
  if (parts.includes("api") || parts.includes("chain"))
    command.addOption(
      new Option("--admin-token <token>", "Bearer token for operator writes").env("CASTNET_ADMIN_TOKEN"),
    );
  if (parts.includes("hub"))
    command.addOption(
      new Option(
        "--network <network>",
        "the network messages are signed for (default: that of the castnet running on the data directory, else mainnet)",
      )
        .choices(["mainnet", "testnet", "devnet"])
        .env("CASTNET_NETWORK"),
    );
  command.addOption(
    new Option(
      "--data-dir <dir>",
      `where the keystore is, and the run file of the castnet running there (default: ${DEFAULT_DATA_DIR})`,
    ).env("CASTNET_DATA_DIR"),
  );
  if (keystore || account)
    command.addOption(
      new Option(
        "--as <account|token>",
        "the account that acts (default: the one in use); a completed key request's token: its key signs for the user who approved it",
      ),
    );
  if (json) command.addOption(new Option("--json", "print the result as one JSON document"));
  // A group's hook also runs before its subcommands' actions (cast before cast remove): only its own.
  return command.hook("preAction", (_, acting) => {
    if (acting === command) findStack(command, parts);
  });
}

/** Fills in `command`'s data directory and part URLs (whichStack.ts), and says what it chose. */
function findStack(command: Command, parts: readonly PartName[]): void {
  const options = command.opts<CommonOptions>();
  const given: Partial<Record<PartName, GivenUrl>> = {};
  for (const part of parts) {
    const url = options[urlOption(part)];
    const from =
      command.getOptionValueSource(urlOption(part)) === "env"
        ? `CASTNET_${part.toUpperCase()}_URL`
        : `--${part}-url`;
    if (url !== undefined) given[part] = { url, from };
  }
  const stack = chooseStack(parts, { dataDir: options.dataDir, urls: given });
  for (const note of stack.notes) console.error(note);
  command.setOptionValue("dataDir", stack.dataDir);
  for (const part of parts) command.setOptionValue(urlOption(part), stack.urls[part]);
  if (parts.includes("hub") && options.network === undefined)
    command.setOptionValue("network", stack.network ?? START_OPTIONS.network!.default);
  command.setOptionValue("keystoreRefusal", stack.keystoreRefusal);
  command.setOptionValue("devBalance", stack.devBalance);
}

export interface CommonOptions {
  hubUrl?: string;
  registryUrl?: string;
  apiUrl?: string;
  chainUrl?: string;
  adminToken?: string;
  network?: "mainnet" | "testnet" | "devnet";
  dataDir?: string;
  as?: string;
  json?: boolean;
  /** Set before the action (whichStack.ts): why the keystore may not be used with these URLs. */
  keystoreRefusal?: string;
  /** Set before the action (whichStack.ts): the wei the running stack gives its keystore's accounts. */
  devBalance?: bigint;
}

const NETWORKS = {
  mainnet: SocialNetwork.MAINNET,
  testnet: SocialNetwork.TESTNET,
  devnet: SocialNetwork.DEVNET,
} as const;

const trim = (url: string | undefined) => url?.replace(/\/+$/, "") ?? "";

/** The clients and the keystore, built from a command's options. */
export function contextOf(options: CommonOptions) {
  let keystore: Keystore | undefined;
  const hub = hubClient(trim(options.hubUrl));
  return {
    options,
    hub,
    /** The people the command's human output names, read from the hub once each. */
    people: new People(hub),
    registry: registryClient(trim(options.registryUrl)),
    api: clientApiClient(trim(options.apiUrl), options.adminToken),
    chain: httpChainClient(trim(options.chainUrl), { adminToken: options.adminToken }),
    chainBase: trim(options.chainUrl),
    /** What operator writes carry when castnet runs with an admin token (loopback needs none). */
    operatorHeaders: options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : undefined,
    network: NETWORKS[options.network ?? "mainnet"],
    /** Wei each new account of the keystore is given: the running stack's --dev-balance, else its default. */
    devBalance: options.devBalance ?? ether("--dev-balance", START_OPTIONS["dev-balance"]!.default!),
    /** The keystore of the data directory, once it is sure to belong to the stack the command talks to. */
    keystore(): Keystore {
      if (options.keystoreRefusal !== undefined) throw new CliError(options.keystoreRefusal);
      return this.localKeystore();
    },
    /** The keystore of the data directory whatever stack the URLs name: for what only reads it. */
    localKeystore(): Keystore {
      keystore ??= new Keystore(options.dataDir!);
      return keystore;
    },
    /** The account that acts: `--as`, else the one in use, else the only one. */
    actor(): { name: string; account: StoredAccount } {
      return this.keystore().resolve(options.as);
    },
  };
}

export type Context = ReturnType<typeof contextOf>;

/** `--json`: the result as one JSON document; otherwise the human lines. */
export function report(options: CommonOptions, result: unknown, human: string | string[]): void {
  if (options.json) console.log(JSON.stringify(result, null, 2));
  else console.log(Array.isArray(human) ? human.join("\n") : human);
}

/**
 * `report` for human lines that name people (context.people): they are made, and the hub read for
 * the names, only when they are printed, so `--json` costs no read.
 */
export async function reportNaming(
  options: CommonOptions,
  result: unknown,
  human: () => Promise<string | string[]>,
): Promise<void> {
  report(options, result, options.json ? [] : await human());
}

/** A whole number in [min, max] from a flag or argument, or a UsageError naming it. */
export function wholeNumber(what: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${what} must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}
