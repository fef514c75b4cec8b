/** The devchain: a local model of the id, key and storage registries on chain id 10. */
import { once } from "../once.js";
import type { FastifyInstance } from "fastify";
import { createHttpServer, type HttpOptions, type Logger } from "../http/index.js";
import {
  type DatabaseConfig,
  type MigrationProgress,
  migrate,
  migrationsApplied,
  openDatabase,
} from "../storage/index.js";
import { chainErrors } from "./errors.js";
import { devchainMetrics } from "./metrics.js";
import { chainApi } from "./openapi.js";
import { chainMigrations } from "./migrations/index.js";
import { chainRoutes } from "./routes/index.js";
import { ChainService } from "./service.js";
import type { ChainTables } from "./tables.js";

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
}

export interface Devchain {
  app: FastifyInstance;
  /** Implements ChainClient, OnChainEventSource and ChainWriter in process. */
  chain: ChainService;
  /** Mines what is pending (nothing accepted is lost), stops the block timer, closes the database. */
  close(): Promise<void>;
}

export async function createDevchain(options: DevchainOptions): Promise<Devchain> {
  if (!Number.isFinite(options.blockTimeSeconds) || options.blockTimeSeconds < 0) {
    throw new RangeError("blockTimeSeconds must be 0 or more");
  }
  const database = openDatabase<ChainTables>(options.database);
  try {
    await migrate(database, "chain", chainMigrations, options.migrationProgress);
  } catch (error) {
    await database.close();
    throw error;
  }
  const chain = new ChainService(database, {
    logger: options.logger,
    blockTimeSeconds: options.blockTimeSeconds,
    now: options.now ?? Date.now,
  });
  await chain.start();
  const app = await createHttpServer({
    ...options.http,
    part: "devchain",
    logger: options.logger,
    errors: chainErrors,
    adminToken: options.adminToken,
    metrics: devchainMetrics(chain),
    ready: { database: migrationsApplied(database, "chain", chainMigrations) },
    api: chainApi,
  });
  await app.register(chainRoutes, { chain, adminToken: options.adminToken });
  await app.ready();
  return {
    app,
    chain,
    close: once(async () => {
      await chain.stopMining();
      await app.close();
      chain.close();
      await database.close();
    }),
  };
}

export { ChainError, type ChainErrorCode } from "./errors.js";
export type { ChainService, MinedTransaction } from "./service.js";
export type { EventsPage } from "./events.js";
export type { BlockInfo } from "./blocks.js";
export * from "../interfaces/chain.js";
