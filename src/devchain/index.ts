/** The devchain: a local model of the id, key and storage registries on chain id 10. */
import type { FastifyInstance } from "fastify";
import { createHttpServer, type HttpOptions, type Logger } from "../http/index.js";
import { startJob } from "../part/job.js";
import { buildPart } from "../part/scope.js";
import { openPartDatabase } from "../part/database.js";
import type { DatabaseConfig, MigrationProgress } from "../storage/index.js";
import { devchainErrors } from "./errors.js";
import { DevchainMetrics } from "./metrics.js";
import { devchainOpenApi } from "./openapi.js";
import { devchainMigrations } from "./migrations/index.js";
import { devchainRoutes } from "./routes/index.js";
import { jsonRpcRoutes, type RpcMethods } from "./rpc/index.js";
import { ethMethods } from "./rpc/methods/index.js";
import { Ledger } from "./ledger/index.js";
import { DEFAULT_BASE_FEE_PER_GAS } from "./ledger/fees.js";
import { OP_MAINNET_CHAIN_ID } from "../protocol/contracts.js";
import type { ChainPrices } from "./contracts/state.js";

/** The registries' prices: $7 a storage unit at 3,000 USD/ETH (docs/reference/contracts.md §7). */
const DEFAULT_PRICES: ChainPrices = {
  storageUnitPrice: 2_333_333_333_333_334n,
  maxStorageUnits: 200_000n,
  maxKeysPerFid: 1000n,
};
import { DevchainService } from "./service.js";
import { DEVCHAIN_TABLE_PREFIX, type DevchainTables } from "./tables.js";

export interface DevchainOptions {
  database: DatabaseConfig;
  /** Told how the migrations that bring its database up to date advance, when there are any. */
  migrationProgress?: MigrationProgress;
  logger: Logger;
  /** Seconds between blocks; 0 mines every transaction at once, in a block of its own. */
  blockTimeSeconds: number;
  adminToken?: string;
  /** Host, origin, time and connection limits of its HTTP server (src/http/server.ts). */
  http?: HttpOptions;
  /** Unix ms; injectable for tests. */
  now?: () => number;
  /** JSON-RPC methods served at `POST /` besides the devchain's own (for tests and embedders). */
  rpcMethods?: RpcMethods;
}

export interface Devchain {
  app: FastifyInstance;
  /** Implements ChainClient, OnChainEventSource and ChainWriter in process. */
  chain: DevchainService;
  /** Stops serving and the block timer, mines what is pending (nothing accepted is lost), closes the database. */
  close(): Promise<void>;
}

export async function createDevchain(options: DevchainOptions): Promise<Devchain> {
  if (!Number.isFinite(options.blockTimeSeconds) || options.blockTimeSeconds < 0) {
    throw new RangeError("blockTimeSeconds must be 0 or more");
  }
  return buildPart({ part: "devchain", logger: options.logger }, async (scope) => {
    const { database, migrated } = await openPartDatabase<DevchainTables>(scope, {
      config: options.database,
      tablePrefix: DEVCHAIN_TABLE_PREFIX,
      migrations: devchainMigrations,
      progress: options.migrationProgress,
    });
    const now = options.now ?? Date.now;
    const ledger = new Ledger(database, {
      chainId: OP_MAINNET_CHAIN_ID,
      baseFee: DEFAULT_BASE_FEE_PER_GAS,
      prices: DEFAULT_PRICES,
      mineAtOnce: options.blockTimeSeconds === 0,
      now,
    });
    await ledger.start();
    const chain = new DevchainService(ledger, now);
    // Closed after the block timer and the server: nothing accepted is left unmined.
    scope.own(chain, (service) => service.close());
    if (options.blockTimeSeconds > 0) {
      // Empty blocks too: followers that wait for confirmations see the chain advance.
      const blocks = startJob({
        name: "devchain: mining a block",
        intervalMs: options.blockTimeSeconds * 1000,
        run: () => ledger.mine(true),
        logger: scope.logger,
        keepAlive: true,
      });
      scope.own(blocks, (job) => job.stop());
    }
    const app = scope.own(
      await createHttpServer({
        ...options.http,
        logger: scope.logger,
        errors: devchainErrors,
        adminToken: options.adminToken,
        metrics: new DevchainMetrics(chain).registry,
        ready: { database: migrated },
        api: devchainOpenApi,
      }),
      (server) => server.close(),
    );
    await app.register(devchainRoutes, { chain, adminToken: options.adminToken });
    await app.register(jsonRpcRoutes, {
      methods: { ...ethMethods(ledger, "castnet-devchain"), ...options.rpcMethods },
      adminToken: options.adminToken,
    });
    await app.ready();
    return { app, chain };
  });
}

export { DevchainError, type DevchainErrorCode } from "../interfaces/chainErrors.js";
export type { BlockInfo, DevchainService, EventsPage, MinedTransaction } from "./service.js";
export * from "../interfaces/chain.js";
