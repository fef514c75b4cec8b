import { once } from "../once.js";
import type { FastifyInstance } from "fastify";
import { createClientApi } from "../clientapi/index.js";
import type { DevKeystore } from "../explorer/index.js";
import type { ChainClient, OnChainEventSource } from "../interfaces/chain.js";
import { httpChainClient } from "../interfaces/chainHttp.js";
import { jsonRpcEventSource } from "../interfaces/chainRpc.js";
import { createDevchain } from "../devchain/index.js";
import { readFileSync } from "node:fs";
import {
  type Logger,
  type RouteEntry,
  StartupError,
  createLogger,
  isLoopback,
  listen,
} from "../http/index.js";
import { httpActivitySource } from "../interfaces/activityHttp.js";
import type { GrpcTls, HubGrpcServer } from "../hub/api/grpc/index.js";
import { type HubOptions, createHub } from "../hub/index.js";
import { namingProfile } from "../protocol/naming.js";
import type { TransferFeed } from "../interfaces/transferFeed.js";
import { httpTransferFeed } from "../interfaces/transferFeedHttp.js";
import { createRegistry } from "../registry/index.js";
import type { MigrationProgress } from "../storage/index.js";
import type { ActivitySource } from "../interfaces/activity.js";
import { mountExplorer } from "./explorer.js";
import { ensureApprovalKey } from "../wallet/approvalKey.js";
import { relayKey } from "./relayKey.js";
import { type StackConfig, databaseFor } from "./options.js";
import { type PartName, PART_NAMES } from "./parts.js";
import { refuseBusyPorts } from "./busyPorts.js";
import { fundKeystoreAccounts } from "./devAccounts.js";
import { runningStack, writeRunFile } from "./runFile.js";
import { type SecretFile, secureStart } from "./secrets.js";

export interface RunningStack {
  /** Base URL of every part this process serves. */
  urls: Partial<Record<PartName, string>>;
  /** host:port of the hub's gRPC API, when this process serves the hub. */
  hubGrpc: string | undefined;
  /** Every route each of those parts serves, for checks that a list kept elsewhere covers them all. */
  routes: Partial<Record<PartName, readonly RouteEntry[]>>;
  /** Stops accepting requests, lets in-flight work finish, closes every database. */
  close(): Promise<void>;
}

export interface Started {
  part: PartName;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The parts of a stack built but not listening: their apps, in start order, and how to stop them. */
export interface BuiltStack {
  parts: readonly Started[];
  grpc: HubGrpcServer | undefined;
  /** Filled in as the parts listen (startStack); the client API reads it for its pages and deep links. */
  urls: Partial<Record<PartName, string>>;
  /** Closes every app, then every part, the last started first. */
  close(): Promise<void>;
}

/** Listeners for the long work of a start; none by default (a test or a library caller wants no lines). */
export interface StartReports {
  /**
   * Work on the running stack before startStack returns, over the parts' HTTP APIs at `urls` (the
   * CLI's `--seed demo`, src/cli/seedOnStart.ts); a failure stops the stack as a failed start does.
   * It stops early, throwing, once `signal` is aborted.
   */
  afterListen?: (urls: Partial<Record<PartName, string>>, signal: AbortSignal | undefined) => Promise<void>;
  /**
   * Stops the start (a Ctrl+C while it runs): startStack then closes what it started, removes the
   * run file and throws the signal's reason, as soon as the step under way (a part's migrations,
   * the seed's current item) is done.
   */
  signal?: AbortSignal;
  /** Migrations of the named part's database. */
  migrations?: (part: PartName) => MigrationProgress;
  /** The hub's catch-up with the chain and the registry at start. */
  catchUp?: HubOptions["onCatchUp"];
}

/** The gRPC certificate and key, read at start so that a wrong path fails the start. */
function readTls(files: { cert: string; key: string }): GrpcTls {
  const read = (path: string) => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new StartupError(`hub gRPC: cannot read ${path}: ${(error as Error).message}`);
    }
  };
  return { cert: read(files.cert), key: read(files.key) };
}

async function listenGrpc(grpc: HubGrpcServer, host: string, port: number): Promise<string> {
  try {
    const bound = await grpc.listen(host, port);
    return `${host.includes(":") ? `[${host}]` : host}:${bound}`;
  } catch (error) {
    throw new StartupError(`hub gRPC: cannot listen on port ${port} on ${host}: ${(error as Error).message}`);
  }
}

/**
 * The keystore the approval page may offer to its owner: only on a stack served on loopback (the
 * keystore is a development convenience of one machine) and with no admin token (an operator who set
 * one guards the stack for others to reach).
 */
function devKeystore(config: StackConfig): DevKeystore | undefined {
  const onLoopback = config.host === "localhost" || isLoopback(config.host);
  if (!onLoopback || config.adminToken !== undefined) return undefined;
  return { dataDir: config.dataDir, approvalKey: ensureApprovalKey(config.dataDir) };
}

/**
 * Builds the parts named in `config.only` in this process, wired in-process to each other and over
 * HTTP to the parts that run elsewhere, without listening (startStack listens; `npm run sdk:types`
 * reads the apps' OpenAPI documents). Parts start in dependency order (chain, registry, hub, API)
 * and stop in the reverse order, so that nothing a part accepted is lost to a closed dependency.
 */
export async function buildStack(
  config: StackConfig,
  logger: Logger = createLogger(config.logLevel),
  reports: StartReports = {},
): Promise<BuiltStack> {
  const naming = namingProfile(config.naming);
  const runs = (part: PartName) => config.only.includes(part);
  const started: Started[] = [];
  const urls: Partial<Record<PartName, string>> = {};
  let grpc: HubGrpcServer | undefined;

  const stopAll = once(async () => {
    for (const { app } of [...started].reverse()) await app.close();
    for (const { close } of [...started].reverse()) await close();
  });

  try {
    const secretFiles = [
      { holds: "admin token", path: config.adminTokenFile },
      { holds: "RPC credentials", path: config.rpcAuthFile },
    ].filter((file): file is SecretFile => file.path !== undefined);
    secureStart(config.databaseUrl ? undefined : config.dataDir, secretFiles, logger);
    let chain: ChainClient & OnChainEventSource;
    if (runs("chain")) {
      const devchain = await createDevchain({
        database: databaseFor(config, "chain"),
        migrationProgress: reports.migrations?.("chain"),
        logger,
        blockTimeSeconds: config.blockTimeSeconds,
        adminToken: config.adminToken,
        http: config.http,
      });
      started.push({ part: "chain", ...devchain });
      chain = devchain.chain;
      await fundKeystoreAccounts(devchain.chain, config, logger);
    } else {
      chain = httpChainClient(config.urls.chain!, { adminToken: config.adminToken });
    }

    let feed: TransferFeed | undefined;
    if (runs("registry")) {
      const registry = await createRegistry({
        database: databaseFor(config, "registry"),
        migrationProgress: reports.migrations?.("registry"),
        logger,
        chain,
        naming,
        adminFids: config.registryAdmins,
        adminToken: config.adminToken,
        http: config.http,
        ...config.parts.registry,
      });
      started.push({ part: "registry", ...registry });
      feed = registry.feed;
    } else if (runs("hub")) {
      // Only the hub follows the registry: the client API started alone needs no registry at all.
      feed = httpTransferFeed(config.urls.registry!);
    }

    let activity: ActivitySource | undefined;
    if (runs("hub")) {
      const hub = await createHub({
        database: databaseFor(config, "hub"),
        migrationProgress: reports.migrations?.("hub"),
        logger,
        naming,
        network: config.network,
        chain: config.chainRpc ? jsonRpcEventSource(config.chainRpc) : chain,
        registry: feed!,
        rpcAuth: config.rpcAuth,
        adminToken: config.adminToken,
        http: config.http,
        grpcTls: config.hubGrpcTls && readTls(config.hubGrpcTls),
        onCatchUp: reports.catchUp,
        ...config.parts.hub,
      });
      started.push({ part: "hub", ...hub });
      grpc = hub.grpc;
      activity = hub.service;
    } else if (config.urls.hub) {
      activity = httpActivitySource(config.urls.hub, { adminToken: config.adminToken });
    }

    if (runs("api")) {
      const { pageLimits, ...apiSettings } = config.parts.api;
      // Read when a page or a deep link needs them: this process's parts have URLs once listening.
      const partUrls = () => ({ ...config.urls, ...urls });
      const api = await createClientApi({
        database: databaseFor(config, "api"),
        migrationProgress: reports.migrations?.("api"),
        logger,
        chain,
        naming,
        adminToken: config.adminToken,
        activity: activity!,
        http: config.http,
        deeplink: config.deeplink,
        relayKey: relayKey.ensure(config.dataDir),
        publicUrl: () => partUrls().api,
        mount: mountExplorer({
          urls: partUrls,
          naming,
          devKeystore: devKeystore(config),
          pageLimits,
        }),
        ...apiSettings,
      });
      started.push({ part: "api", ...api });
    }
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
  return { parts: started, grpc, urls, close: stopAll };
}

/**
 * Refuses a start on a data directory castnet already runs on, before anything is touched: the
 * second start would migrate the same databases and then fail on a port, or share them.
 */
function refuseRunningStack(dataDir: string): void {
  const running = runningStack(dataDir);
  if (running === undefined) return;
  const urls = PART_NAMES.filter((part) => running.urls[part]).map((part) => `${part} ${running.urls[part]}`);
  throw new StartupError(
    `castnet already runs on ${dataDir} (process ${running.pid}${urls.length > 0 ? `: ${urls.join(", ")}` : ""}); ` +
      "stop it first, or start another stack with another --data-dir",
  );
}

/**
 * Builds the stack (buildStack), has every part listen on its port, the hub's gRPC too, records the
 * run in the data directory (castnet.run.json: where the CLI's commands find the stack, and what
 * `castnet reset` refuses), then runs `reports.afterListen`. A data directory another castnet runs
 * on, and a port in use, are refused first.
 */
export async function startStack(
  config: StackConfig,
  logger: Logger = createLogger(config.logLevel),
  reports: StartReports = {},
): Promise<RunningStack> {
  refuseRunningStack(config.dataDir);
  await refuseBusyPorts(config);
  const built = await buildStack(config, logger, reports);
  const urls = built.urls;
  const routes: Partial<Record<PartName, readonly RouteEntry[]>> = {};
  let hubGrpc: string | undefined;
  let removeRunFile = () => {};
  const close = once(async () => {
    removeRunFile();
    await built.close();
  });
  try {
    reports.signal?.throwIfAborted();
    for (const { part, app } of built.parts) {
      urls[part] = await listen(app, part, config.host, config.ports[part]);
      routes[part] = app.routeInventory;
    }
    if (built.grpc !== undefined) hubGrpc = await listenGrpc(built.grpc, config.host, config.hubGrpcPort);
    removeRunFile = writeRunFile(config.dataDir, {
      pid: process.pid,
      // The stack's parts wherever they run, those elsewhere (--only) too, in the order users read them.
      urls: Object.fromEntries(
        PART_NAMES.flatMap((part) => {
          const url = urls[part] ?? config.urls[part];
          return url === undefined ? [] : [[part, url]];
        }),
      ),
      ...(hubGrpc === undefined ? {} : { hubGrpc }),
      network: config.network,
      devBalance: config.devBalance.toString(),
      database: config.databaseUrl ? "postgres" : "sqlite",
    });
    reports.signal?.throwIfAborted();
    await reports.afterListen?.(urls, reports.signal);
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  return { urls, hubGrpc, routes, close };
}
