import type { Address } from "viem";
import type { ChainClient } from "../interfaces/chain.js";
import type { Logger } from "../http/index.js";
import type { NamingProfile } from "../protocol/naming.js";
import type { Database } from "../storage/index.js";
import type { ActivitySource } from "../interfaces/activity.js";
import { Actions } from "./actions.js";
import { Blocks } from "./blocks.js";
import { ChannelCache } from "./channelCache.js";
import { ChannelFollows } from "./channelFollows.js";
import { Channels } from "./channels.js";
import type { ApiContext } from "./context.js";
import { Cursors } from "./cursor.js";
import { type KeyRequestLimits, keyRequestLimiter } from "./keyRequests/limits.js";
import { KeyRequests } from "./keyRequests/keyRequests.js";
import { PowerBadges, type PowerBadgeRule } from "./powerBadges.js";
import { addressLimiter } from "./signIn/limits.js";
import { SignIns } from "./signIn/signIns.js";
import { QuickAuth } from "./signIn/quickAuth.js";
import * as settingStore from "./settingStore.js";
import { Sponsors } from "./sponsors.js";
import type { ClientApiTables } from "./tables.js";

/**
 * The client API's rules, without HTTP, one domain each: what routes, the seed, benchmarks and other
 * parts call. Every write is one transaction, checked before anything is written.
 */
export interface ClientApiService {
  channels: Channels;
  follows: ChannelFollows;
  blocks: Blocks;
  actions: Actions;
  sponsors: Sponsors;
  powerBadges: PowerBadges;
  keyRequests: KeyRequests;
  signIns: SignIns;
  quickAuth: QuickAuth;
}

export interface ServiceOptions {
  database: Database<ClientApiTables>;
  logger: Logger;
  chain: ChainClient;
  naming: NamingProfile;
  activity: ActivitySource;
  powerBadgeRule: PowerBadgeRule;
  /** deeplinkUrl of a signed key request, by its token. */
  deeplink: (token: string) => string;
  sponsorCost: number;
  validatorContract?: Address;
  keyGatewayContract?: Address;
  keyRequestLimits: KeyRequestLimits;
  keyRequestRetentionSeconds: number;
  /** A sign-in channel's url, by its token. */
  signInLink: (token: string) => string;
  signInChannelsPerAddressPerHour: number;
  quickAuthNoncesPerAddressPerHour: number;
  /** The client API's public URL, as configured; Quick Auth's tokens name it as their issuer. */
  publicUrl: () => string | undefined;
  /** Unix ms. */
  now: () => number;
}

export async function createService(options: ServiceOptions): Promise<ClientApiService> {
  const { database } = options;
  const ctx: ApiContext = {
    database,
    nowSeconds: () => Math.floor(options.now() / 1000),
    cursors: new Cursors(await settingStore.cursorKey(database.db)),
    logger: options.logger,
  };
  // One cache for both domains that render channels, so a change seen by one is seen by the other.
  const channelCache = new ChannelCache(database.db);
  const sponsors = new Sponsors(ctx);
  return {
    channels: new Channels(ctx, channelCache),
    follows: new ChannelFollows(ctx, channelCache),
    blocks: new Blocks(ctx),
    actions: new Actions(ctx),
    sponsors,
    powerBadges: new PowerBadges(ctx, options.activity, options.powerBadgeRule),
    keyRequests: new KeyRequests(ctx, sponsors, {
      chain: options.chain,
      naming: options.naming,
      deeplink: options.deeplink,
      sponsorCost: options.sponsorCost,
      validatorContract: options.validatorContract,
      keyGatewayContract: options.keyGatewayContract,
      limits: keyRequestLimiter(options.keyRequestLimits, options.now),
      retentionSeconds: options.keyRequestRetentionSeconds,
    }),
    signIns: new SignIns(ctx, {
      chain: options.chain,
      activity: options.activity,
      link: options.signInLink,
      admit: addressLimiter(options.signInChannelsPerAddressPerHour, options.now, "sign-in channels opened"),
    }),
    quickAuth: new QuickAuth(ctx, {
      chain: options.chain,
      publicUrl: options.publicUrl,
      admit: addressLimiter(
        options.quickAuthNoncesPerAddressPerHour,
        options.now,
        "Quick Auth nonces asked for",
      ),
    }),
  };
}
