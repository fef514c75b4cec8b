import type { onRequestAsyncHookHandler } from "fastify";
import type { NamingProfile } from "../../protocol/naming.js";
import type { HubMetrics } from "../metrics.js";
import type { HubService } from "../service.js";
import type { ActivityReadOptions } from "./activity.js";
import type { StreamLimits } from "./stream.js";

/** What the hub's route plugins are registered with; each takes the part it needs. */
export interface HubRoutesOptions {
  service: HubService;
  profile: NamingProfile;
  /** Basic-auth check for submits, when --rpc-auth is set. */
  auth: onRequestAsyncHookHandler | undefined;
  adminToken: string | undefined;
  activityRead: ActivityReadOptions;
  now: () => number;
  streams?: StreamLimits;
  metrics: HubMetrics;
}
