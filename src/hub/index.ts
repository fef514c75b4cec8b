import { availableParallelism } from "node:os";
/**
 * The hub (SPEC C, docs/reference/spec.md): signed messages as CRDT sets, on-chain events, username proofs,
 * hub events.
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { OnChainEventSource } from "../interfaces/chain.js";
import { connectionLimits, createHttpServer, type HttpOptions, type Logger } from "../http/index.js";
import { SocialNetwork } from "../protocol/generated/message.js";
import type { NamingProfile } from "../protocol/naming.js";
import type { TransferFeed } from "../interfaces/transferFeed.js";
import type { DatabaseConfig, MigrationProgress } from "../storage/index.js";
import { openPartDatabase } from "../part/database.js";
import { startJob } from "../part/job.js";
import { buildPart } from "../part/scope.js";
import type { HubCore } from "./core.js";
import { MergeEngine } from "./merge/engine.js";
import { basicAuth, basicCredentials, parseRpcAuth } from "./api/auth.js";
import { hubErrors } from "./errors.js";
import { createGrpcServer, type GrpcTls, type HubGrpcServer } from "./api/grpc/index.js";
import { hubOpenApi } from "./openapi.js";
import { EventBus } from "./data/events.js";
import { NameFollower } from "./follow/fnames.js";
import { housekeeping } from "./jobs.js";
import { HubMetrics } from "./metrics.js";
import { hubMigrations } from "./migrations/index.js";
import { FidRateLimit } from "./merge/fidRateLimit.js";
import { ChainFollower } from "./follow/chainFollower.js";
import type { CatchUpProgress } from "./follow/follower.js";
import { type ActivityReadOptions, DEFAULT_ACTIVITY_READ, type StreamLimits } from "./api/routes/options.js";
import { hubRoutes } from "./api/routes/index.js";
import { HubService } from "./service.js";
import { readState } from "./data/state.js";
import { HUB_TABLE_PREFIX, type HubTables } from "./data/tables.js";
import { createVerifier, type Verifier } from "./merge/verify.js";

export interface HubOptions {
  database: DatabaseConfig;
  /** Told how the migrations that bring its database up to date advance, when there are any. */
  migrationProgress?: MigrationProgress;
  logger: Logger;
  naming: NamingProfile;
  network: "mainnet" | "testnet" | "devnet";
  chain: OnChainEventSource;
  registry: TransferFeed;
  /** "user:password[,user:password…]": submitMessage then needs HTTP Basic auth. */
  rpcAuth?: string;
  /** Guards the operator routes (/v1/admin/…); without one they answer loopback callers only. */
  adminToken?: string;
  /** Unix ms; injectable for tests. */
  now?: () => number;
  /** Threads that verify signatures; default one per core but one, 0 verifies on the main thread. */
  verifyWorkers?: number;
  /** A verifier to use instead of starting one from verifyWorkers (tests); the hub closes it. */
  verifier?: Verifier;
  /**
   * Merges a fid may make per storage unit per 24 hours (docs/reference/protocol-rules.md §3 step 10);
   * default 10,080.
   */
  mergesPerUnit?: number;
  /** Bounds of GET /v1/activity/reactorsByAuthor (default: 90 days back, answers cached 60 s). */
  activityRead?: Partial<ActivityReadOptions>;
  /** Caps on open event streams, in all and per client (routes/stream.ts), for SSE and gRPC each. */
  streams?: StreamLimits;
  /** A certificate and key for the gRPC server, which then speaks TLS only. */
  grpcTls?: GrpcTls;
  /** Host, origin, time and connection limits of its HTTP server (src/http/server.ts). */
  http?: HttpOptions;
  /** Told how the catch-up with the chain and the registry advances at start, when behind. */
  onCatchUp?: (source: "chain" | "registry", catchUp: CatchUpProgress) => void;
}

export interface Hub {
  app: FastifyInstance;
  /** The gRPC API (HubService), built but not listening, like `app`. */
  grpc: HubGrpcServer;
  service: HubService;
  /** Drains in-flight merges (nothing acknowledged is lost), stops followers and workers, closes the database. */
  close(): Promise<void>;
}

const NETWORKS: Record<HubOptions["network"], SocialNetwork> = {
  mainnet: SocialNetwork.MAINNET,
  testnet: SocialNetwork.TESTNET,
  devnet: SocialNetwork.DEVNET,
};

const VERSION = "0.1.0";
/** Bulk submits are the largest bodies the hub takes; each route sets its own, smaller limit. */
const BODY_LIMIT = 8 * 1024 * 1024;
const HOUR_MS = 60 * 60 * 1000;

async function peerIdOf(database: HubCore["database"]): Promise<string> {
  await database.db
    .insertInto("hub_state")
    .values({ key: "hub:peer_id", value: `castnet-${randomBytes(12).toString("hex")}` })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  return (await readState(database.db, "hub:peer_id"))!;
}

/**
 * A new SQLite file gets 8 KiB pages (SQLite's default is 4 KiB): a message row with its JSON
 * takes about 1.3 KB, which the clustered message table keeps within a page only from 8 KiB on;
 * every commit writes each page it touched to the WAL, so 16 KiB pages wrote a third more per
 * message (docs/performance.md). Commits wait for no fsync on the event loop; merges are acknowledged once
 * durable (core.ts). List pages are read on reader threads (storage/readers.ts). The writer's page
 * cache holds the pages merges keep coming back to (each fid's newest leaf of the message table, the
 * set-key index, the account tables every group reads): with SQLite's 2 MiB, 500 fids' merges
 * re-read pages from the file.
 */
const SQLITE_TUNING = {
  pageSize: 8_192,
  backgroundSync: true,
  // Beside the thread that serves HTTP and the verifier pool; one on two cores.
  readers: Math.max(1, Math.min(4, availableParallelism() - 1)),
  // Pages come back in memory shared with the readers (storage/pooledText.ts): a page of the
  // default thousand messages is under 1 MiB; beyond 64 pages in flight, or a bigger page, a string.
  readerSlots: { count: 64, bytes: 1024 * 1024 },
  writerCacheMiB: 32,
};

export async function createHub(options: HubOptions): Promise<Hub> {
  const credentials = options.rpcAuth === undefined ? undefined : parseRpcAuth(options.rpcAuth);
  const auth = credentials === undefined ? undefined : basicAuth(credentials);
  return buildPart({ part: "hub", logger: options.logger }, async (scope) => {
    const { database, migrated } = await openPartDatabase<HubTables>(scope, {
      config: options.database,
      tablePrefix: HUB_TABLE_PREFIX,
      migrations: hubMigrations,
      progress: options.migrationProgress,
      tuning: SQLITE_TUNING,
    });
    const core: HubCore = {
      database,
      profile: options.naming,
      network: NETWORKS[options.network],
      now: options.now ?? Date.now,
      logger: scope.logger,
      bus: new EventBus(),
      metrics: new HubMetrics(),
    };
    const verifier = scope.own(
      options.verifier ?? createVerifier(options.verifyWorkers, options.naming, core.metrics.verifyBatchSize),
      (pool) => pool.close(),
    );
    const onCatchUp = options.onCatchUp;
    const chain = scope.own(
      new ChainFollower(core, options.chain, onCatchUp && ((c) => onCatchUp("chain", c))),
      (follower) => follower.stop(),
    );
    const names = scope.own(
      new NameFollower(core, options.registry, onCatchUp && ((c) => onCatchUp("registry", c))),
      (follower) => follower.stop(),
    );
    core.metrics.watch({ verifyQueue: () => verifier.queued, followers: { chain, registry: names } });
    const engine = scope.own(
      new MergeEngine(
        core,
        verifier,
        {
          syncChain: () => chain.sync(),
          recoverName: (name) => names.recover(name),
        },
        new FidRateLimit(options.mergesPerUnit),
      ),
      (merges) => merges.close(),
    );
    const service = new HubService(
      core,
      engine,
      { syncChain: () => chain.sync(), syncNames: () => names.sync() },
      { version: VERSION, nickname: "castnet", peerId: await peerIdOf(database) },
    );
    const app = scope.own(
      await createHttpServer({
        ...options.http,
        logger: scope.logger,
        errors: hubErrors,
        api: hubOpenApi(options.naming),
        bodyLimit: BODY_LIMIT,
        adminToken: options.adminToken,
        metrics: core.metrics.registry,
        ready: {
          database: migrated,
          "chain follower": async () => chain.unready(),
          "registry follower": async () => names.unready(),
        },
      }),
      (server) => server.close(),
    );
    await app.register(hubRoutes, {
      service,
      profile: options.naming,
      auth,
      adminToken: options.adminToken,
      activityRead: { ...DEFAULT_ACTIVITY_READ, ...options.activityRead },
      now: core.now,
      streams: options.streams,
      metrics: core.metrics,
    });
    await app.ready();
    const grpc = scope.own(
      createGrpcServer(
        { service, database, logger: core.logger },
        {
          tls: options.grpcTls,
          streams: options.streams,
          limits: connectionLimits(options.http),
          auth: credentials === undefined ? undefined : basicCredentials(credentials),
        },
      ),
      (server) => server.close(),
    );
    void chain.sync();
    void names.sync();
    const jobs = startJob({
      name: "hub housekeeping",
      intervalMs: HOUR_MS,
      run: () => housekeeping(core),
      logger: core.logger,
    });
    scope.own(jobs, (job) => job.stop());
    return { app, grpc, service };
  });
}

export type { HubService } from "./service.js";
