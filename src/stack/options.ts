import { resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import type { HttpOptions } from "../http/index.js";
import type { NamingProfileName } from "../protocol/naming.js";
import type { DatabaseConfig } from "../storage/index.js";
import { DEFAULT_DATA_DIR, findDataDir } from "./dataDir.js";
import { DEFAULT_CONFIG_FILE, type PartSettings, readConfigFile } from "./configFile.js";
import {
  baseUrl,
  count,
  ether,
  list,
  milliseconds,
  oneOf,
  origins,
  port,
  portBase,
  readSecretFile,
  registryAdmins,
} from "./optionValues.js";
import { refuseUntrustedLoosening, type SecuritySetting, securitySettings } from "./securitySettings.js";
import { refuseDashValues, usageErrorOf } from "./usage.js";
import { UsageError } from "../usageError.js";
import { type PartName, PART_NAMES, PARTS, partNamed } from "./parts.js";

export type Network = "mainnet" | "testnet" | "devnet";
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface StackConfig {
  dataDir: string;
  /** Why castnet chose `dataDir` when none was named and it is not ./.castnet (dataDir.ts). */
  dataDirFound: string | undefined;
  host: string;
  ports: Record<PartName, number>;
  hubGrpcPort: number;
  /** Certificate and key files: the hub's gRPC port then speaks TLS only. */
  hubGrpcTls: { cert: string; key: string } | undefined;
  only: readonly PartName[];
  /** Base URLs of parts that run elsewhere (needed only for parts not in `only`). */
  urls: Partial<Record<PartName, string>>;
  /** A JSON-RPC chain the hub follows instead of the devchain's in-process events. */
  chainRpc: { url: string; firstBlock: number; confirmations: number | undefined } | undefined;
  naming: NamingProfileName;
  network: Network;
  blockTimeSeconds: number;
  /** Wei each custody address of the keystore holds at least once the devchain starts (0: none). */
  devBalance: bigint;
  adminToken: string | undefined;
  /** Where `adminToken` was read from, when it came from a file. */
  adminTokenFile: string | undefined;
  rpcAuth: string | undefined;
  /** Where `rpcAuth` was read from, when it came from a file. */
  rpcAuthFile: string | undefined;
  logLevel: LogLevel;
  databaseUrl: string | undefined;
  seed: "demo" | undefined;
  /** What signed key request deep links open: the client API's approval page, or the custom scheme. */
  deeplink: "page" | "scheme";
  /** Registry admin fid → the address that signs its requests (none unless configured). */
  registryAdmins: Record<number, `0x${string}`>;
  /** Host, origin, time and connection limits every part's HTTP server applies. */
  http: HttpOptions;
  /** Per-part settings from the config file, for each part's createX. */
  parts: PartSettings;
  /** The config file read, and what named it: --config, CASTNET_CONFIG, or the working directory. */
  configFile: { path: string; from: string } | undefined;
  /** Every security setting not at its default, and where it came from (the start banner lists them). */
  security: SecuritySetting[];
}

interface OptionSpec {
  env: string;
  help: string;
  default?: string;
}

/** Every `castnet start` option; each can also be set by its environment variable. */
export const START_OPTIONS: Record<string, OptionSpec> = {
  config: {
    env: "CASTNET_CONFIG",
    help: `JSON file of start options and per-part settings (default ./${DEFAULT_CONFIG_FILE} when present)`,
  },
  "data-dir": {
    env: "CASTNET_DATA_DIR",
    help: `where the embedded databases, the keystore and the run file live (default: ${DEFAULT_DATA_DIR})`,
  },
  host: { env: "CASTNET_HOST", default: "127.0.0.1", help: "address to listen on" },
  "port-base": {
    env: "CASTNET_PORT_BASE",
    help: "N: registry N, hub N+1, client API N+2, hub gRPC N+3, devchain N+4 (a port option set beside it wins)",
  },
  ports: {
    env: "CASTNET_PORTS",
    help: "auto: every port free, chosen by the system (a port option set beside it wins)",
  },
  "registry-port": { env: "CASTNET_REGISTRY_PORT", default: "2280", help: "name registry port" },
  "hub-port": { env: "CASTNET_HUB_PORT", default: "2281", help: "hub port" },
  "api-port": { env: "CASTNET_API_PORT", default: "2282", help: "client API port" },
  "hub-grpc-port": { env: "CASTNET_HUB_GRPC_PORT", default: "2283", help: "hub gRPC port (HubService)" },
  "chain-port": { env: "CASTNET_CHAIN_PORT", default: "2284", help: "devchain port" },
  "hub-grpc-tls-cert": { env: "CASTNET_HUB_GRPC_TLS_CERT", help: "PEM certificate chain: hub gRPC over TLS" },
  "hub-grpc-tls-key": { env: "CASTNET_HUB_GRPC_TLS_KEY", help: "PEM private key of --hub-grpc-tls-cert" },
  only: { env: "CASTNET_ONLY", help: "run only these parts: comma-separated registry,hub,api,chain" },
  "registry-url": { env: "CASTNET_REGISTRY_URL", help: "registry to follow when it is not in --only" },
  "hub-url": { env: "CASTNET_HUB_URL", help: "hub to read activity from when it is not in --only" },
  "chain-url": { env: "CASTNET_CHAIN_URL", help: "devchain to use when it is not in --only" },
  "chain-rpc-url": {
    env: "CASTNET_CHAIN_RPC_URL",
    help: "Ethereum JSON-RPC endpoint whose registry logs the hub follows (default: the devchain, in process)",
  },
  "chain-first-block": {
    env: "CASTNET_CHAIN_FIRST_BLOCK",
    help: "with --chain-rpc-url: the first block to read (OP mainnet's registries begin at 108864739)",
  },
  "chain-confirmations": {
    env: "CASTNET_CHAIN_CONFIRMATIONS",
    help: "with --chain-rpc-url: blocks on top of a block before its events are merged (default 2)",
  },
  naming: {
    env: "CASTNET_NAMING",
    default: "neutral",
    help: "neutral | reference: spellings of brand words on the wire",
  },
  network: {
    env: "CASTNET_NETWORK",
    default: "mainnet",
    help: "mainnet | testnet | devnet: the network the hub accepts",
  },
  "block-time": {
    env: "CASTNET_BLOCK_TIME",
    default: "2",
    help: "seconds between devchain blocks (0: mine each transaction at once)",
  },
  "dev-balance": {
    env: "CASTNET_DEV_BALANCE",
    default: "100",
    help: "ether the devchain gives every account of the keystore: at start, below it; at account create",
  },
  "admin-token": {
    env: "CASTNET_ADMIN_TOKEN",
    help: "Bearer token for operator writes (without it: loopback only)",
  },
  "admin-token-file": {
    env: "CASTNET_ADMIN_TOKEN_FILE",
    help: "file holding the admin token (keeps it out of the process list)",
  },
  "rpc-auth": {
    env: "CASTNET_RPC_AUTH",
    help: "user:password[,user:password] required by the hub's submitMessage",
  },
  "rpc-auth-file": {
    env: "CASTNET_RPC_AUTH_FILE",
    help: "file holding the --rpc-auth credentials (keeps them out of the process list)",
  },
  "registry-admin": {
    env: "CASTNET_REGISTRY_ADMIN",
    help: "fid=0xaddress[,fid=0xaddress]: registry admins, each with a key of its own (never the server key)",
  },
  seed: {
    env: "CASTNET_SEED",
    help: "demo: fill the stack with a demo world once it runs (as castnet seed demo; idempotent)",
  },
  deeplink: {
    env: "CASTNET_DEEPLINK",
    default: "page",
    help: "page | scheme: signed key request deep links open the client API's approval page, or <scheme>://",
  },
  "allowed-hosts": {
    env: "CASTNET_ALLOWED_HOSTS",
    help: "comma-separated host names the parts answer to besides IP addresses and localhost (* for any)",
  },
  "trusted-origins": {
    env: "CASTNET_TRUSTED_ORIGINS",
    help: "comma-separated origins (https://admin.example) whose pages may call operator routes",
  },
  "request-timeout": {
    env: "CASTNET_REQUEST_TIMEOUT",
    help: "seconds to receive a whole request (default 30)",
  },
  "headers-timeout": {
    env: "CASTNET_HEADERS_TIMEOUT",
    help: "seconds to receive request headers (default 10)",
  },
  "idle-timeout": {
    env: "CASTNET_IDLE_TIMEOUT",
    help: "seconds a silent connection stays open (default 120)",
  },
  "max-connections": {
    env: "CASTNET_MAX_CONNECTIONS",
    help: "open connections each part accepts (default 4096)",
  },
  "log-level": {
    env: "CASTNET_LOG_LEVEL",
    default: "info",
    help: "fatal | error | warn | info | debug | trace | silent",
  },
};

/** Adds every START_OPTIONS entry to `command` as `--name <value>`, its help naming its variable. */
export function addStartOptions(command: Command): Command {
  for (const [name, spec] of Object.entries(START_OPTIONS)) {
    const dflt = spec.default !== undefined ? `; default ${spec.default}` : "";
    // No commander default or env here: the environment is resolved below, over an `env` tests give.
    command.addOption(new Option(`--${name} <value>`, `${spec.help} (env ${spec.env}${dflt})`));
  }
  return command.addHelpText(
    "after",
    "\nEnvironment:\n  DATABASE_URL             postgres://... to keep every part in one PostgreSQL database",
  );
}

/** Parses `castnet start` arguments over the environment; throws UsageError for anything unclear. */
export function parseStartOptions(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): StackConfig {
  const command = addStartOptions(new Command("start"))
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  refuseDashValues(command, args);
  try {
    command.parse([...args], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) throw usageErrorOf(error, "castnet start");
    throw error;
  }
  return startConfigOf(command, env);
}

/** The stack configuration from a `start` command's parsed options, over the environment. */
export function startConfigOf(command: Command, env: NodeJS.ProcessEnv = process.env): StackConfig {
  const values = command.opts<Record<string, string | undefined>>();
  const flag = (name: string) => values[name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())];
  const given = (name: string): string | undefined => {
    const set = flag(name) ?? env[START_OPTIONS[name]!.env];
    return set === "" ? undefined : set;
  };
  const configPath = given("config");
  const file = readConfigFile(
    resolve(configPath ?? DEFAULT_CONFIG_FILE),
    configPath !== undefined,
    Object.keys(START_OPTIONS),
  );
  refuseUntrustedLoosening(file);
  // Flags, then the environment, then the file, then the default.
  const value = (name: string): string | undefined =>
    given(name) ?? file.options[name] ?? START_OPTIONS[name]!.default;
  /** The flag, the variable or the file that set an option; undefined when it has its default. */
  const source = (name: string): string | undefined => {
    if (given(name) !== undefined) return flag(name) !== undefined ? `--${name}` : START_OPTIONS[name]!.env;
    return file.options[name] !== undefined ? file.path : undefined;
  };

  const only = (value("only") ?? PART_NAMES.join(","))
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => partNamed(p) ?? oneOf("only", p, PART_NAMES));
  if (only.length === 0) throw new UsageError("--only names no part");

  const blockTime = Number(value("block-time"));
  if (!Number.isFinite(blockTime) || blockTime < 0 || blockTime > 3600)
    throw new UsageError(
      `--block-time must be a number of seconds from 0 to 3600, got "${value("block-time")}"`,
    );

  const tokenFile = value("admin-token-file");
  if (tokenFile !== undefined && value("admin-token") !== undefined)
    throw new UsageError("give the admin token either directly or as a file, not both");
  const adminTokenFile = tokenFile === undefined ? undefined : resolve(tokenFile);

  const credentialsFile = value("rpc-auth-file");
  if (credentialsFile !== undefined && value("rpc-auth") !== undefined)
    throw new UsageError("give the RPC credentials either directly or as a file, not both");
  const rpcAuthFile = credentialsFile === undefined ? undefined : resolve(credentialsFile);
  const rpcAuth =
    rpcAuthFile === undefined ? value("rpc-auth") : readSecretFile("rpc-auth-file", rpcAuthFile);
  if (rpcAuth !== undefined && !rpcAuth.split(",").every((pair) => /^[^:]+:.+$/.test(pair)))
    throw new UsageError(
      rpcAuthFile === undefined
        ? "--rpc-auth must be user:password[,user:password]"
        : `--rpc-auth-file: ${rpcAuthFile} must hold user:password[,user:password]`,
    );

  const [tlsCert, tlsKey] = [value("hub-grpc-tls-cert"), value("hub-grpc-tls-key")];
  if ((tlsCert === undefined) !== (tlsKey === undefined))
    throw new UsageError("--hub-grpc-tls-cert and --hub-grpc-tls-key go together");

  const seed = value("seed");
  const named = value("data-dir");
  const found = named === undefined ? findDataDir(env) : undefined;
  const ports = choosePorts((name) => given(name) ?? file.options[name]);
  const config: StackConfig = {
    dataDir: resolve(named ?? found!.path),
    dataDirFound: found?.why,
    host: value("host")!,
    ports: {
      registry: ports["registry-port"],
      hub: ports["hub-port"],
      api: ports["api-port"],
      chain: ports["chain-port"],
    },
    hubGrpcPort: ports["hub-grpc-port"],
    hubGrpcTls: tlsCert && tlsKey ? { cert: resolve(tlsCert), key: resolve(tlsKey) } : undefined,
    only,
    urls: {
      registry: baseUrl("registry-url", value("registry-url")),
      hub: baseUrl("hub-url", value("hub-url")),
      chain: baseUrl("chain-url", value("chain-url")),
    },
    chainRpc: chainRpcOf(value),
    naming: oneOf("naming", value("naming")!, ["neutral", "reference"] as const),
    network: oneOf("network", value("network")!, ["mainnet", "testnet", "devnet"] as const),
    blockTimeSeconds: blockTime,
    devBalance: ether("--dev-balance", value("dev-balance")!),
    adminToken:
      adminTokenFile === undefined
        ? value("admin-token")
        : readSecretFile("admin-token-file", adminTokenFile),
    adminTokenFile,
    rpcAuth,
    rpcAuthFile,
    logLevel: oneOf("log-level", value("log-level")!, [
      "fatal",
      "error",
      "warn",
      "info",
      "debug",
      "trace",
      "silent",
    ] as const),
    databaseUrl: env.DATABASE_URL || undefined,
    seed: seed === undefined ? undefined : oneOf("seed", seed, ["demo"] as const),
    deeplink: oneOf("deeplink", value("deeplink")!, ["page", "scheme"] as const),
    registryAdmins: registryAdmins(value("registry-admin")),
    http: {
      allowedHosts: list(value("allowed-hosts")),
      trustedOrigins: origins(value("trusted-origins")),
      requestTimeoutMs: milliseconds("request-timeout", value("request-timeout")),
      headersTimeoutMs: milliseconds("headers-timeout", value("headers-timeout")),
      idleTimeoutMs: milliseconds("idle-timeout", value("idle-timeout")),
      maxConnections: count("max-connections", value("max-connections")),
    },
    parts: file.parts,
    configFile:
      file.path === undefined
        ? undefined
        : { path: file.path, from: source("config") ?? "found in the working directory" },
    security: securitySettings(
      (name) => (value(name) === START_OPTIONS[name]!.default ? undefined : source(name)),
      value,
      file,
    ),
  };
  requireUrls(config);
  if (config.seed && config.only.length < PART_NAMES.length)
    throw new UsageError("--seed demo fills all four parts: start them together (no --only)");
  return config;
}

/** Every listener's port option, in the order of the default ports (2280 to 2284) and of --port-base. */
const PORT_OPTIONS = ["registry-port", "hub-port", "api-port", "hub-grpc-port", "chain-port"] as const;

/**
 * Each listener's port: its own option, wherever it was set (`set` says); else its place after
 * --port-base N, or 0 (a free port) under --ports auto; else its default.
 */
function choosePorts(
  set: (name: string) => string | undefined,
): Record<(typeof PORT_OPTIONS)[number], number> {
  const base = set("port-base");
  const auto = set("ports");
  if (base !== undefined && auto !== undefined)
    throw new UsageError("give either --port-base or --ports auto, not both");
  if (auto !== undefined) oneOf("ports", auto, ["auto"] as const);
  const first = base === undefined ? undefined : portBase("port-base", base, PORT_OPTIONS.length);
  const chosen = (name: (typeof PORT_OPTIONS)[number], place: number): number => {
    const own = set(name);
    if (own !== undefined) return port(name, own);
    if (first !== undefined) return first + place;
    return auto === undefined ? port(name, START_OPTIONS[name]!.default!) : 0;
  };
  return Object.fromEntries(PORT_OPTIONS.map((name, place) => [name, chosen(name, place)])) as Record<
    (typeof PORT_OPTIONS)[number],
    number
  >;
}

function requireUrls(config: StackConfig): void {
  for (const part of config.only) {
    for (const needed of PARTS[part].needs) {
      if (!config.only.includes(needed) && !config.urls[needed]) {
        throw new UsageError(
          `--only ${config.only.join(",")} runs the ${part} without the ${needed}: give --${needed}-url`,
        );
      }
    }
  }
}

function chainRpcOf(value: (name: string) => string | undefined): StackConfig["chainRpc"] {
  const url = baseUrl("chain-rpc-url", value("chain-rpc-url"));
  const [first, confirmations] = [value("chain-first-block"), value("chain-confirmations")];
  if (url === undefined) {
    if (first !== undefined || confirmations !== undefined)
      throw new UsageError("--chain-first-block and --chain-confirmations go with --chain-rpc-url");
    return undefined;
  }
  const whole = (name: string, given: string | undefined) => {
    if (given === undefined) return undefined;
    const n = Number(given);
    if (!Number.isSafeInteger(n) || n < 0)
      throw new UsageError(`--${name} must be a whole number, got "${given}"`);
    return n;
  };
  return {
    url,
    firstBlock: whole("chain-first-block", first) ?? 0,
    confirmations: whole("chain-confirmations", confirmations),
  };
}

/** Where a part keeps its data: the shared PostgreSQL database, or its own SQLite file. */
export function databaseFor(config: StackConfig, part: PartName): DatabaseConfig {
  if (config.databaseUrl) return { engine: "postgres", url: config.databaseUrl };
  return { engine: "sqlite", path: resolve(config.dataDir, `${part}.sqlite`) };
}
