/**
 * The one way tests start parts: the requested parts on one test database, each handed the one
 * before it as `castnet start` hands it (devchain → registry → hub → client API), with the
 * in-process interfaces instead of HTTP. The part folders' support files add their own helpers
 * (accounts, signing, calls) on top.
 */
import { dirname, join } from "node:path";
import type { ActivitySource } from "../../src/interfaces/activity.js";
import { type ClientApi, type ClientApiOptions, createClientApi } from "../../src/clientapi/index.js";
import { type ExplorerMount, mountExplorer } from "../../src/stack/explorer.js";
import { type Devchain, type DevchainOptions, createDevchain } from "../../src/devchain/index.js";
import { createLogger, listen } from "../../src/http/index.js";
import { type Hub, type HubOptions, createHub } from "../../src/hub/index.js";
import { NEUTRAL, type NamingProfile } from "../../src/protocol/naming.js";
import { type Registry, type RegistryOptions, createRegistry } from "../../src/registry/index.js";
import type { DatabaseConfig } from "../../src/storage/index.js";
import type { TestEngine } from "./databases.js";

/** CASTNET_TEST_LOG=1 shows the parts' debug logs. */
export const testLogger = createLogger(process.env.CASTNET_TEST_LOG === "1" ? "debug" : "silent");

export type TestPart = "devchain" | "registry" | "hub" | "clientapi";

interface Parts {
  registry: Registry;
  hub: Hub;
  clientapi: ClientApi;
}

export interface TestStackOptions<P extends TestPart> {
  /** The parts to start; the devchain starts whatever is asked, as every other part follows it. */
  parts: readonly P[];
  naming?: NamingProfile;
  /** Block time defaults to 0: every transaction is mined at once. */
  chain?: Partial<Omit<DevchainOptions, "database" | "logger">>;
  registry?: Partial<RegistryOptions>;
  hub?: Partial<HubOptions>;
  /** `activity` defaults to the hub's when the hub is started. */
  clientapi?: Partial<ClientApiOptions>;
  /** How the explorer is mounted on the client API (as the stack mounts it; no part URLs unless given). */
  explorer?: Partial<ExplorerMount>;
  /** Parts that listen on 127.0.0.1 at a free port (their URLs in `urls`); tests reach the others with `inject`. */
  listen?: readonly TestPart[];
}

export type TestStack<P extends TestPart> = Pick<Parts, Exclude<P, "devchain">> & {
  chain: Devchain;
  /** Each part's database: a file of its own on SQLite, one database shared by all on PostgreSQL. */
  databases: Record<TestPart, DatabaseConfig>;
  urls: Partial<Record<TestPart, string>>;
  /** A fresh, empty database of the stack's engine, dropped by close(). */
  freshDatabase(): Promise<DatabaseConfig>;
  /** Another registry wired as the first (same chain), on the registry's database unless told otherwise. */
  startRegistry(overrides?: Partial<RegistryOptions>): Promise<Registry>;
  /** Another hub wired as the first (same chain and registry), on the hub's database unless told otherwise. */
  startHub(overrides?: Partial<HubOptions>): Promise<Hub>;
  /** Another client API wired as the first (a restart, or a second process), on its database unless told otherwise. */
  startClientApi(overrides?: Partial<ClientApiOptions>): Promise<ClientApi>;
  /** Closes every part started, the last started first, then drops the databases. */
  close(): Promise<void>;
};

/** The parts are started in this order, so that each finds what it follows already running. */
const ORDER: readonly TestPart[] = ["devchain", "registry", "hub", "clientapi"];

export async function startTestStack<P extends TestPart>(
  engine: TestEngine,
  options: TestStackOptions<P>,
): Promise<TestStack<P>> {
  const wanted = new Set<TestPart>(["devchain", ...options.parts]);
  const naming = options.naming ?? NEUTRAL;
  const logger = testLogger;
  const { config, drop } = await engine.create();
  const drops = [drop];
  const closes: (() => Promise<void>)[] = [];
  const databaseOf = (part: TestPart): DatabaseConfig =>
    config.engine === "postgres"
      ? config
      : { engine: "sqlite", path: join(dirname(config.path), `${part}.sqlite`) };
  const databases = Object.fromEntries(ORDER.map((part) => [part, databaseOf(part)])) as Record<
    TestPart,
    DatabaseConfig
  >;

  const close = async () => {
    for (const closePart of closes.splice(0).reverse()) await closePart();
    for (const dropDatabase of drops.splice(0)) await dropDatabase();
  };

  try {
    const chain = await createDevchain({
      database: databases.devchain,
      logger,
      blockTimeSeconds: 0,
      ...options.chain,
    });
    closes.push(() => chain.close());

    let first: Partial<Parts> = {};
    const startRegistry = async (overrides: Partial<RegistryOptions> = {}) => {
      const registry = await createRegistry({
        database: databases.registry,
        logger,
        chain: chain.chain,
        naming,
        rateLimit: false,
        signatureThreads: 0,
        ...options.registry,
        ...overrides,
      });
      closes.push(() => registry.close());
      return registry;
    };
    const startHub = async (overrides: Partial<HubOptions> = {}) => {
      const registry = options.hub?.registry ?? first.registry?.feed;
      if (registry === undefined) throw new Error("a test hub needs the registry part or a registry feed");
      const hub = await createHub({
        database: databases.hub,
        logger,
        naming,
        network: "devnet",
        chain: chain.chain,
        registry,
        verifyWorkers: 1,
        ...options.hub,
        ...overrides,
      });
      closes.push(() => hub.close());
      return hub;
    };
    const startClientApi = async (overrides: Partial<ClientApiOptions> = {}) => {
      const activity: ActivitySource | undefined = options.clientapi?.activity ?? first.hub?.service;
      if (activity === undefined)
        throw new Error("a test client API needs the hub part or an activity source");
      const api = await createClientApi({
        database: databases.clientapi,
        logger,
        chain: chain.chain,
        naming,
        activity,
        mount: mountExplorer({ urls: () => ({}), naming, ...options.explorer }),
        ...options.clientapi,
        ...overrides,
      });
      closes.push(() => api.close());
      return api;
    };

    if (wanted.has("registry")) first = { ...first, registry: await startRegistry() };
    if (wanted.has("hub")) first = { ...first, hub: await startHub() };
    if (wanted.has("clientapi")) first = { ...first, clientapi: await startClientApi() };

    const apps = {
      devchain: chain.app,
      ...Object.fromEntries(Object.entries(first).map(([k, v]) => [k, v.app])),
    };
    const urls: Partial<Record<TestPart, string>> = {};
    for (const part of options.listen ?? []) {
      const app = apps[part as keyof typeof apps];
      if (app === undefined) throw new Error(`cannot listen with ${part}: it was not started`);
      urls[part] = await listen(app, part, "127.0.0.1", 0);
    }

    return {
      ...(first as Pick<Parts, Exclude<P, "devchain">>),
      chain,
      databases,
      urls,
      async freshDatabase() {
        const created = await engine.create();
        drops.push(created.drop);
        return created.config;
      },
      startRegistry,
      startHub,
      startClientApi,
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
