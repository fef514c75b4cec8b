import type { onRequestAsyncHookHandler } from "fastify";
import type { NamingProfile } from "../../../protocol/naming.js";
import type { HubMetrics } from "../../metrics.js";
import type { HubService } from "../../service.js";

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

export interface StreamLimits {
  /** Open event streams in all; default 2,000. */
  maxStreams?: number;
  /** Open event streams per client address (IPv6: per /64), and per web page origin at that address; default 20. */
  maxStreamsPerClient?: number;
}

export interface ActivityReadOptions {
  /** How far back `since` may reach, in days. */
  windowDays: number;
  /** How long an answer is served again to the same (minute-rounded) `since`, in ms. */
  cacheMs: number;
}

/** 90 days: three times the default power-badge window. */
export const DEFAULT_ACTIVITY_READ: ActivityReadOptions = { windowDays: 90, cacheMs: 60_000 };
