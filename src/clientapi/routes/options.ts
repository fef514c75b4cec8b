import type { ClientApiService } from "../service.js";

/** What the client API's route plugins are registered with; each takes the domain it serves. */
export interface ClientApiRoutesOptions {
  service: ClientApiService;
  /** Operator writes need it as a Bearer token; without one they are accepted from loopback only. */
  adminToken: string | undefined;
  /** The sign-in relay's key, which POST /v1/channel/authenticate needs; without one that route is refused. */
  relayKey: string | undefined;
}
