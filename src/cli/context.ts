/**
 * What every everyday command shares: the parts' URLs (flags with start's default ports and the
 * same environment variables), the keystore, `--as`, `--json`, and how a result is printed.
 */
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { httpChainClient } from "../interfaces/chainHttp.js";
import { SocialNetwork } from "../protocol/generated/message.js";
import { clientApiClient } from "./http/clientApi.js";
import { hubClient } from "./http/hub.js";
import { registryClient } from "./http/registry.js";
import { Keystore, type StoredAccount } from "../wallet/keystore.js";
import { START_OPTIONS } from "../stack/options.js";
import { type PartName, PARTS } from "../stack/parts.js";
import { UsageError } from "../usageError.js";

function startDefault(name: string): string {
  return START_OPTIONS[name]!.default!;
}

/**
 * The options a command takes: the parts it calls, the keystore (to name accounts), an account that
 * acts (`--as`, which needs the keystore), --json.
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
      new Option(`--${part}-url <url>`, `the ${PARTS[part].title}`)
        .env(`CASTNET_${part.toUpperCase()}_URL`)
        .default(`http://127.0.0.1:${startDefault(`${part}-port`)}`),
    );
  }
  if (parts.includes("api") || parts.includes("chain"))
    command.addOption(
      new Option("--admin-token <token>", "Bearer token for operator writes").env("CASTNET_ADMIN_TOKEN"),
    );
  if (parts.includes("hub"))
    command.addOption(
      new Option("--network <network>", "the network messages are signed for")
        .choices(["mainnet", "testnet", "devnet"])
        .env("CASTNET_NETWORK")
        .default(startDefault("network")),
    );
  if (keystore || account)
    command.addOption(
      new Option("--data-dir <dir>", "where the keystore is (as for start)")
        .env("CASTNET_DATA_DIR")
        .default(startDefault("data-dir")),
    );
  if (account)
    command.addOption(
      new Option(
        "--as <account|token>",
        "the account that acts (default: the one in use); a completed key request's token: its key signs for the user who approved it",
      ),
    );
  if (json) command.addOption(new Option("--json", "print the result as one JSON document"));
  return command;
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
  return {
    options,
    hub: hubClient(trim(options.hubUrl)),
    registry: registryClient(trim(options.registryUrl)),
    api: clientApiClient(trim(options.apiUrl), options.adminToken),
    chain: httpChainClient(trim(options.chainUrl), { adminToken: options.adminToken }),
    chainBase: trim(options.chainUrl),
    /** What operator writes carry when castnet runs with an admin token (loopback needs none). */
    operatorHeaders: options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : undefined,
    network: NETWORKS[options.network ?? "mainnet"],
    keystore(): Keystore {
      keystore ??= new Keystore(resolve(options.dataDir ?? startDefault("data-dir")));
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

/** A whole number in [min, max] from a flag or argument, or a UsageError naming it. */
export function wholeNumber(what: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${what} must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}
