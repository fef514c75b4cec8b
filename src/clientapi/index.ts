import type { FastifyInstance } from "fastify";
import type { Address } from "viem";
import type { ChainClient } from "../interfaces/chain.js";
import { type HttpOptions, type Logger, createHttpServer } from "../http/index.js";
import type { NamingProfile } from "../protocol/naming.js";
import type { DatabaseConfig, MigrationProgress } from "../storage/index.js";
import { openPartDatabase } from "../part/database.js";
import { startJob } from "../part/job.js";
import { buildPart } from "../part/scope.js";
import type { ActivitySource } from "../interfaces/activity.js";
import { clientApiErrors } from "./errors.js";
import { clientApiOpenApi } from "./openapi.js";
import { DEFAULT_KEY_REQUEST_LIMITS, type KeyRequestLimits } from "./keyRequests/limits.js";
import { ClientApiMetrics } from "./metrics.js";
import { clientApiMigrations } from "./migrations/index.js";
import { DEFAULT_POWER_BADGE_RULE, type PowerBadgeRule } from "./powerBadges.js";
import {
  DEFAULT_CHANNELS_PER_ADDRESS_PER_HOUR,
  DEFAULT_NONCES_PER_ADDRESS_PER_HOUR,
} from "./signIn/limits.js";
import { clientApiRoutes } from "./routes/index.js";
import { type ClientApiService, createService } from "./service.js";
import { CLIENT_API_TABLE_PREFIX, type ClientApiTables } from "./tables.js";

export type { ActivitySource } from "../interfaces/activity.js";
export type { ClientApiService } from "./service.js";
export type { ApprovalTypedData } from "./keyRequests/approvals.js";
export type { SignedKeyRequestJson } from "./keyRequests/keyRequests.js";
export type { OpenSignInChannel } from "./signIn/signIns.js";
export type { PowerBadgeRule } from "./powerBadges.js";
export { ClientApiError, clientApiErrorSchema, notFound } from "./errors.js";
export { DEFAULT_KEY_REQUEST_LIMITS, type KeyRequestLimits } from "./keyRequests/limits.js";

export interface ClientApiOptions {
  database: DatabaseConfig;
  /** Told how the migrations that bring its database up to date advance, when there are any. */
  migrationProgress?: MigrationProgress;
  logger: Logger;
  chain: ChainClient;
  naming: NamingProfile;
  /** Operator writes need it as a Bearer token; without one they are accepted from loopback only. */
  adminToken?: string;
  /** Host, origin, time and connection limits of its HTTP server (src/http/server.ts). */
  http?: HttpOptions;
  activity: ActivitySource;
  /** Credits a sponsored approval takes from the sponsor (default 1). */
  sponsorCost?: number;
  /** verifyingContract of the SignedKeyRequest domain (default: the reference validator address). */
  validatorContract?: Address;
  /** verifyingContract of the key gateway `Add` domain (default: the reference key gateway address). */
  keyGatewayContract?: Address;
  /** Unix ms; injectable for tests. */
  now?: () => number;
  /** Thresholds of the power-badge rule (default: 5 distinct reactors in 30 days). */
  powerBadgeRule?: Partial<PowerBadgeRule>;
  /**
   * What deeplinkUrl and a sign-in channel's url open: "page" (default), castnet's approval pages at
   * `<publicUrl()>/approve?token=` and `<publicUrl()>/sign-in?channelToken=`; "scheme",
   * `<deeplinkScheme>://signed-key-request?token=` and `<deeplinkScheme>://siwf?channelToken=`, links
   * a client app installed on the device opens. Without a public URL of its own the part can only
   * give the scheme form.
   */
  deeplink?: "page" | "scheme";
  /** Scheme of the "scheme" links (default: the naming profile's). */
  deeplinkScheme?: string;
  /**
   * This part's own public URL, as configured (never taken from a request's Host): for deep links,
   * and the issuer of Quick Auth's tokens (without one, Quick Auth refuses to sign in).
   */
  publicUrl?: () => string | undefined;
  /**
   * Routes another module serves on this part's server, given its service: the stack mounts the
   * explorer and the approval page here (src/stack/explorer.ts).
   */
  mount?: (app: FastifyInstance, service: ClientApiService) => Promise<void>;
  /** How often the background loop checks pending key adds and the badge schedule (default 1000 ms). */
  pollIntervalMs?: number;
  /** Signed key requests one requesting fid, and one client address, may create per hour (default 600 each). */
  keyRequestLimits?: Partial<KeyRequestLimits>;
  /** How long a signed key request stays readable after its deadline before it is deleted (default 24 h). */
  keyRequestRetentionMs?: number;
  /**
   * The sign-in relay's key: a client app completing a channel sends it as X-Farcaster-Auth-Relay-Key.
   * Without one, POST /v1/channel/authenticate is refused (the explorer's page completes channels in process).
   */
  relayKey?: string;
  /** Sign-in channels one client address may open per hour, so keep open at once (default 100). */
  signInChannelsPerAddressPerHour?: number;
  /** Quick Auth nonces one client address may ask for per hour (default 600). */
  quickAuthNoncesPerAddressPerHour?: number;
}

const DAY_MS = 86_400_000;

export interface ClientApi {
  app: FastifyInstance;
  service: ClientApiService;
  close(): Promise<void>;
}

/**
 * The client API (SPEC B, docs/reference/spec.md) on its own database, with its background loop running
 * until `close`.
 */
export async function createClientApi(options: ClientApiOptions): Promise<ClientApi> {
  return buildPart({ part: "clientapi", logger: options.logger }, async (scope) => {
    const { database, migrated } = await openPartDatabase<ClientApiTables>(scope, {
      config: options.database,
      tablePrefix: CLIENT_API_TABLE_PREFIX,
      migrations: clientApiMigrations,
      progress: options.migrationProgress,
    });
    const now = options.now ?? Date.now;
    const publicUrl = options.publicUrl ?? (() => undefined);
    const scheme = options.deeplinkScheme ?? options.naming.deeplinkScheme;
    // The same choice of page or scheme for both flows a client app approves.
    const link = (page: string, schemePath: string) => (query: string) => {
      const own = publicUrl();
      return options.deeplink !== "scheme" && own !== undefined
        ? `${own}/${page}?${query}`
        : `${scheme}://${schemePath}?${query}`;
    };
    const keyRequestLink = link("approve", "signed-key-request");
    const signInLink = link("sign-in", "siwf");
    const service = await createService({
      database,
      logger: scope.logger,
      chain: options.chain,
      naming: options.naming,
      activity: options.activity,
      powerBadgeRule: { ...DEFAULT_POWER_BADGE_RULE, ...options.powerBadgeRule },
      deeplink: (token) => keyRequestLink(`token=${token}`),
      signInLink: (token) => signInLink(`channelToken=${token}`),
      signInChannelsPerAddressPerHour:
        options.signInChannelsPerAddressPerHour ?? DEFAULT_CHANNELS_PER_ADDRESS_PER_HOUR,
      quickAuthNoncesPerAddressPerHour:
        options.quickAuthNoncesPerAddressPerHour ?? DEFAULT_NONCES_PER_ADDRESS_PER_HOUR,
      sponsorCost: options.sponsorCost ?? 1,
      validatorContract: options.validatorContract,
      keyGatewayContract: options.keyGatewayContract,
      keyRequestLimits: { ...DEFAULT_KEY_REQUEST_LIMITS, ...options.keyRequestLimits },
      keyRequestRetentionSeconds: Math.floor((options.keyRequestRetentionMs ?? DAY_MS) / 1000),
      publicUrl,
      now,
    });

    const app = scope.own(
      await createHttpServer({
        ...options.http,
        logger: scope.logger,
        errors: clientApiErrors,
        adminToken: options.adminToken,
        metrics: new ClientApiMetrics(database.db).registry,
        ready: { database: migrated },
        api: clientApiOpenApi,
      }),
      (server) => server.close(),
    );
    await app.register(clientApiRoutes, {
      service,
      adminToken: options.adminToken,
      relayKey: options.relayKey,
    });
    await options.mount?.(app, service);
    await app.ready();

    // Started last, so stopped first: the server then closes with no round in progress.
    const rounds = startJob({
      name: "client API background round",
      intervalMs: options.pollIntervalMs ?? 1000,
      immediately: true,
      run: async () => {
        // Each task on its own: one failing does not keep the others from their turn.
        for (const task of [
          () => service.keyRequests.advanceApproved(),
          () => service.keyRequests.deleteExpired(),
          () => service.signIns.deleteExpired(),
          () => service.powerBadges.checkSchedule(),
          () => service.quickAuth.deleteExpired(),
        ])
          await task().catch((error: unknown) =>
            scope.logger.error({ err: error }, "client API background task failed"),
          );
      },
      logger: scope.logger,
    });
    scope.own(rounds, (job) => job.stop());
    return { app, service };
  });
}
