/** Every HTTP route of the hub, as one Fastify plugin. */
import type { FastifyPluginAsync, onRequestAsyncHookHandler } from "fastify";
import type { NamingProfile } from "../../protocol/naming.js";
import type { HubService } from "../service.js";
import { type ActivityReadOptions, activityRoutes } from "./activity.js";
import { adminRoutes } from "./admin.js";
import { chainRoutes } from "./chain.js";
import { eventRoutes } from "./events.js";
import { infoRoutes } from "./info.js";
import { messageRoutes } from "./messages.js";
import { proofRoutes } from "./proofs.js";
import { type StreamLimits, streamRoutes } from "./stream.js";
import { submitRoutes } from "./submit.js";

export interface HubRoutesOptions {
  service: HubService;
  profile: NamingProfile;
  /** Basic-auth check for submits, when --rpc-auth is set. */
  auth: onRequestAsyncHookHandler | undefined;
  adminToken: string | undefined;
  activityRead: ActivityReadOptions;
  now: () => number;
  streams?: StreamLimits;
}

export function hubRoutes(options: HubRoutesOptions): FastifyPluginAsync {
  const { service, profile, auth, adminToken, streams } = options;
  return async (app) => {
    await app.register(infoRoutes(service));
    await app.register(activityRoutes(service, adminToken, options.activityRead, options.now));
    await app.register(messageRoutes(service));
    await app.register(chainRoutes(service));
    await app.register(proofRoutes(service, profile));
    await app.register(eventRoutes(service, profile));
    await app.register(streamRoutes(service, profile, streams));
    await app.register(submitRoutes(service, auth));
    await app.register(adminRoutes(service, adminToken));
  };
}
