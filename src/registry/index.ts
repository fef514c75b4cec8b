import type { FastifyInstance } from "fastify";
import { type Address, type Hex, getAddress, isAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { ChainClient } from "../interfaces/chain.js";
import { type HttpOptions, type Logger, RateLimiter, createHttpServer } from "../http/index.js";
import { USERNAME_PROOF_VERIFIER_ADDRESS } from "../protocol/contracts.js";
import type { NamingProfile } from "../protocol/naming.js";
import {
  type Database,
  type DatabaseConfig,
  type MigrationProgress,
  serializedTransaction,
} from "../storage/index.js";
import { openPartDatabase } from "../part/database.js";
import { buildPart } from "../part/scope.js";
import { ccipRoutes } from "./ccipRoutes.js";
import { registryErrors } from "./errors.js";
import { registryOpenApi } from "./openapi.js";
import type { TransferFeed } from "../interfaces/transferFeed.js";
import { RegistryMetrics } from "./metrics.js";
import { registryMigrations } from "./migrations/index.js";
import {
  type CcipLimits,
  DEFAULT_CCIP_LIMITS,
  DEFAULT_TRANSFER_LIMITS,
  type TransferLimits,
  transferLimiter,
} from "./rateLimit.js";
import { registryRoutes } from "./routes.js";
import { defaultReservedNames } from "./constants.js";
import { RegistryService } from "./service.js";
import { createClaimSigner } from "./signatures.js";
import { settleSetting } from "./store.js";
import { REGISTRY_TABLE_PREFIX, type RegistryTables } from "./tables.js";

export { RegistryService, type TransferRequest } from "./service.js";
export type { TransferLimits } from "./rateLimit.js";
export type { Transfer, TransferFeed } from "../interfaces/transferFeed.js";

/** The reference's deployed L1 resolver: the default verifying contract of CCIP-read signatures. */
export const DEFAULT_CCIP_VERIFYING_CONTRACT: Address = "0x145b9934B42F214C101De04b6115285959BDD4F5";

export interface RegistryOptions {
  database: DatabaseConfig;
  /** Told how the migrations that bring its database up to date advance, when there are any. */
  migrationProgress?: MigrationProgress;
  logger: Logger;
  chain: ChainClient;
  naming: NamingProfile;
  /** The registry's secp256k1 key; without it one is generated on first start and kept in the database. */
  serverPrivateKey?: Hex;
  /**
   * Admin fid → the address that signs its requests. Default: none. An admin's address must not be
   * the server key's: the server publishes its signature of every transfer's claim.
   */
  adminFids?: Record<number, Address>;
  /** Names only admins may register. Default: the reference's list. */
  reservedNames?: readonly string[];
  /** Per-fid and per-IP limits on POST /transfers; false turns them off. Default: 30 per fid, 600 per IP. */
  rateLimit?: TransferLimits | false;
  /** Per-client limit on name lookups of the CCIP-read gateway; false turns it off. Default: 3600. */
  ccipRateLimit?: CcipLimits | false;
  /** verifyingContract of the username-proof domain (user and stored server signatures). */
  proofVerifyingContract?: Address;
  /** verifyingContract of the CCIP-read gateway's signatures. */
  ccipVerifyingContract?: Address;
  /** Unix ms. */
  now?: () => number;
  /** Threads that check and make signatures (at least 1). Default: one per core, at most 4. */
  signatureThreads?: number;
  /** Guards GET /metrics, its one operator route; without one it answers loopback callers only. */
  adminToken?: string;
  /** Host, origin, time and connection limits of its HTTP server (src/http/server.ts). */
  http?: HttpOptions;
}

export interface Registry {
  app: FastifyInstance;
  service: RegistryService;
  /** The in-process feed the hub follows (the service itself). */
  feed: TransferFeed;
  close(): Promise<void>;
}

const SERVER_KEY_SETTING = "server_private_key";

/** Several processes may start at once on one PostgreSQL: the first one's key is the key of all. */
function storedServerKey(database: Database<RegistryTables>): Promise<Hex> {
  return serializedTransaction(
    database,
    "registry",
    async (trx) => (await settleSetting(trx, SERVER_KEY_SETTING, generatePrivateKey())) as Hex,
  );
}

function checkedAddress(value: string, what: string): Address {
  if (!isAddress(value, { strict: false })) throw new Error(`${what} is not an address: ${value}`);
  return getAddress(value);
}

function adminMap(adminFids: Record<number, Address>, serverAddress: Address): Map<number, Address> {
  const admins = new Map<number, Address>();
  for (const [fid, address] of Object.entries(adminFids)) {
    const number = Number(fid);
    if (!Number.isSafeInteger(number) || number <= 0)
      throw new Error(`admin fid ${fid} is not a positive integer`);
    // The reference skips admin fids configured without an address.
    if (!address) continue;
    const checked = checkedAddress(address, `the address of admin fid ${fid}`);
    // Every accepted transfer publishes the server's signature of its claim, which is the very
    // message an admin signs in the reference's form: with the server key as an admin key, anyone
    // could replay a published server signature as an admin request.
    if (checked === serverAddress) {
      throw new Error(
        `admin fid ${fid} signs with the registry's server key (${serverAddress}): the server publishes ` +
          "a signature of every transfer, so an admin key must be a key of its own",
      );
    }
    admins.set(number, checked);
  }
  return admins;
}

/**
 * The name registry (SPEC A, docs/reference/spec.md): its HTTP app, its service, and the feed the hub
 * follows.
 */
export async function createRegistry(options: RegistryOptions): Promise<Registry> {
  const setup = {
    naming: options.naming,
    proofVerifyingContract: checkedAddress(
      options.proofVerifyingContract ?? USERNAME_PROOF_VERIFIER_ADDRESS,
      "proofVerifyingContract",
    ),
    ccipVerifyingContract: checkedAddress(
      options.ccipVerifyingContract ?? DEFAULT_CCIP_VERIFYING_CONTRACT,
      "ccipVerifyingContract",
    ),
  };
  const reserved = new Set(options.reservedNames ?? defaultReservedNames(options.naming));
  const now = options.now ?? Date.now;
  const rateLimit = options.rateLimit ?? DEFAULT_TRANSFER_LIMITS;
  const limits = rateLimit === false ? undefined : transferLimiter(rateLimit, now);
  const ccipRateLimit = options.ccipRateLimit ?? DEFAULT_CCIP_LIMITS;
  const lookups = ccipRateLimit === false ? undefined : new RateLimiter(ccipRateLimit.perClientPerHour, now);

  return buildPart({ part: "registry", logger: options.logger }, async (scope) => {
    const { database, migrated } = await openPartDatabase<RegistryTables>(scope, {
      config: options.database,
      tablePrefix: REGISTRY_TABLE_PREFIX,
      migrations: registryMigrations,
      progress: options.migrationProgress,
    });
    const privateKey = options.serverPrivateKey ?? (await storedServerKey(database));
    let serverAddress: Address;
    try {
      serverAddress = privateKeyToAccount(privateKey).address;
    } catch {
      throw new Error("the registry's server private key is not a 32-byte hex secp256k1 key");
    }
    const admins = adminMap(options.adminFids ?? {}, serverAddress);
    const signer = scope.own(
      createClaimSigner({ ...setup, privateKey }, options.signatureThreads),
      (threads) => threads.close(),
    );
    const service = new RegistryService({ database, chain: options.chain, signer, admins, reserved, now });

    const metrics = new RegistryMetrics();
    const app = scope.own(
      await createHttpServer({
        ...options.http,
        logger: scope.logger,
        errors: registryErrors,
        api: registryOpenApi,
        // A transfer request is a few hundred bytes; a CCIP multicall a few kilobytes.
        bodyLimit: 16 * 1024,
        adminToken: options.adminToken,
        metrics: metrics.registry,
        ready: { database: migrated },
      }),
      (server) => server.close(),
    );
    await app.register(registryRoutes, { service, limits, metrics });
    await app.register(ccipRoutes, { prefix: "/ccip", service, lookups });
    return { app, service, feed: service };
  });
}
