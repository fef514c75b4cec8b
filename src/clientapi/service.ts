import type { Address } from "viem";
import type { ChainClient } from "../devchain/client.js";
import type { Logger } from "../http/index.js";
import type { NamingProfile } from "../protocol/naming.js";
import type { Database } from "../storage/index.js";
import type { ActivitySource } from "./activity.js";
import { Cursors } from "./cursor.js";
import { Directory } from "./directory.js";
import { type KeyRequestLimits, KeyRequestLimiter } from "./keyRequestLimits.js";
import { KeyRequests } from "./keyRequests.js";
import { PowerBadges, type PowerBadgeRule } from "./powerBadges.js";
import * as settingStore from "./settingStore.js";
import type { ApiTables } from "./tables.js";

/** The client API's rules, without HTTP: what routes, the seed, benchmarks and other parts call. */
export interface ClientApiService {
  directory: Directory;
  powerBadges: PowerBadges;
  keyRequests: KeyRequests;
}

export interface ServiceOptions {
  database: Database<ApiTables>;
  logger: Logger;
  chain: ChainClient;
  naming: NamingProfile;
  activity: ActivitySource;
  powerBadgeRule: PowerBadgeRule;
  deeplinkScheme: string;
  sponsorCost: number;
  validatorContract?: Address;
  keyGatewayContract?: Address;
  keyRequestLimits: KeyRequestLimits;
  keyRequestRetentionSeconds: number;
  /** Unix ms. */
  now: () => number;
}

export async function createService(options: ServiceOptions): Promise<ClientApiService> {
  const { database, logger } = options;
  const nowSeconds = () => Math.floor(options.now() / 1000);
  const cursors = new Cursors(await settingStore.cursorKey(database.db));
  return {
    directory: new Directory(database, cursors, nowSeconds),
    powerBadges: new PowerBadges(database, options.activity, options.powerBadgeRule, nowSeconds, logger),
    keyRequests: new KeyRequests(database, {
      chain: options.chain,
      naming: options.naming,
      deeplinkScheme: options.deeplinkScheme,
      sponsorCost: options.sponsorCost,
      validatorContract: options.validatorContract,
      keyGatewayContract: options.keyGatewayContract,
      limits: new KeyRequestLimiter(options.keyRequestLimits, options.now),
      retentionSeconds: options.keyRequestRetentionSeconds,
      nowSeconds,
      logger,
    }),
  };
}
