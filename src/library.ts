/**
 * castnet as a library: the stack `castnet start` runs (src/stack/stack.ts), started in this process on
 * free ports for a test suite, with a client for each part and accounts made through the devchain's
 * public API.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AccountDetails, createAccount } from "./stack/account.js";
import { type LogLevel, type Network, parseStartOptions } from "./stack/options.js";
import { type PartName, PART_NAMES } from "./stack/parts.js";
import { startStack } from "./stack/stack.js";
import { ClientApiClient, DevchainClient, HubClient, HubResponseError, RegistryClient } from "./sdk/index.js";
import { namingProfile, type NamingProfileName } from "./protocol/naming.js";
import { once } from "./once.js";

export type { AccountDetails, PartName };

export interface StartCastnetOptions<P extends PartName> {
  /** The parts to start (default all): "chain", "registry", "hub", "api". */
  parts?: readonly P[];
  /** Base URLs of the parts a chosen part needs but that run elsewhere. */
  urls?: Partial<Record<PartName, string>>;
  /** Where the SQLite files go; a temporary directory, removed by close(), unless given. A
   * castnet.config.json in the working directory is read as `castnet start` reads it, and refused
   * (a UsageError) when others could write it and it sets what opens castnet up. */
  dataDir?: string;
  /** A PostgreSQL URL: every part keeps its tables there instead of in SQLite files. */
  databaseUrl?: string;
  /** Seconds between blocks; 0 (the default) mines every transaction at once. */
  blockTimeSeconds?: number;
  naming?: NamingProfileName;
  /** The network the hub takes messages for; "mainnet" unless given, as for `castnet start`. */
  network?: Network;
  /** Operator writes then need it; the clients send it. */
  adminToken?: string;
  /** The parts' log level; "silent" unless given. */
  logLevel?: LogLevel;
  /** The address to listen on; 127.0.0.1 unless given. */
  host?: string;
}

export interface CastnetClients {
  chain: DevchainClient;
  registry: RegistryClient;
  hub: HubClient;
  api: ClientApiClient;
}

export interface Castnet<P extends PartName> {
  /** Base URL of every started part. */
  urls: Record<P, string>;
  clients: Pick<CastnetClients, P>;
  /** The data directory: the one given, or the temporary one close() removes. */
  dataDir: string;
  /**
   * A fid with `units` of storage (default 1) and an Ed25519 signer, registered on the devchain over
   * its HTTP API, its custody address given 100 ETH as `castnet account create` gives it; when the
   * hub runs here, it returns once the hub has the signer.
   */
  createAccount(options?: { units?: number }): Promise<AccountDetails>;
  /** Stops every part and removes the temporary data directory; calling it again does nothing. */
  close(): Promise<void>;
}

const HUB_SEES_SIGNER_MS = 30_000;

/** The `castnet start` flags for the options: every port free (0), the environment left out. */
function startFlags(options: StartCastnetOptions<PartName>, parts: readonly PartName[], dataDir: string) {
  const flags = ["--data-dir", dataDir, "--only", parts.join(","), "--ports", "auto"];
  flags.push("--block-time", String(options.blockTimeSeconds ?? 0));
  flags.push("--log-level", options.logLevel ?? "silent", "--host", options.host ?? "127.0.0.1");
  if (options.naming !== undefined) flags.push("--naming", options.naming);
  if (options.network !== undefined) flags.push("--network", options.network);
  if (options.adminToken !== undefined) flags.push("--admin-token", options.adminToken);
  for (const [part, url] of Object.entries(options.urls ?? {})) flags.push(`--${part}-url`, url);
  return flags;
}

export async function startCastnet<P extends PartName = PartName>(
  options: StartCastnetOptions<P> = {},
): Promise<Castnet<P>> {
  const parts: readonly PartName[] = options.parts ?? PART_NAMES;
  const temporary = options.dataDir === undefined ? mkdtempSync(join(tmpdir(), "castnet-")) : undefined;
  const dataDir = options.dataDir ?? temporary!;
  const removeTemporary = () => {
    if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
  };
  let stack;
  let config;
  try {
    const env = options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl };
    config = parseStartOptions(startFlags(options, parts, dataDir), env);
    stack = await startStack(config);
  } catch (error) {
    removeTemporary();
    throw error;
  }

  const urls = { ...options.urls, ...stack.urls } as Record<PartName, string | undefined>;
  const client = { adminToken: options.adminToken };
  const all = {
    chain: urls.chain === undefined ? undefined : new DevchainClient(urls.chain, client),
    registry: urls.registry === undefined ? undefined : new RegistryClient(urls.registry, client),
    hub: urls.hub === undefined ? undefined : new HubClient(urls.hub, client),
    api: urls.api === undefined ? undefined : new ClientApiClient(urls.api, client),
  };
  const clients = Object.fromEntries(parts.map((part) => [part, all[part]])) as Pick<CastnetClients, P>;
  const hub = parts.includes("hub") ? all.hub : undefined;

  return {
    urls: stack.urls as Record<P, string>,
    clients,
    dataDir,
    async createAccount({ units = 1 } = {}) {
      if (urls.chain === undefined) throw new Error("createAccount needs the chain part, or urls.chain");
      const account = await createAccount({
        chainUrl: urls.chain,
        units,
        adminToken: options.adminToken,
        balance: config.devBalance,
        naming: namingProfile(options.naming ?? "neutral"),
      });
      if (hub !== undefined) await hubHasSigner(hub, account);
      return account;
    },
    close: once(async () => {
      await stack.close();
      removeTemporary();
    }),
  };
}

/** Waits until the hub has merged the account's signer add: messages it signs are then accepted. */
async function hubHasSigner(hub: HubClient, account: AccountDetails): Promise<void> {
  const deadline = Date.now() + HUB_SEES_SIGNER_MS;
  for (;;) {
    try {
      await hub.get("/v1/onChainSignersByFid", { fid: account.fid, signer: account.signerPublicKey });
      return;
    } catch (error) {
      if (!(error instanceof HubResponseError && error.status === 404) || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
