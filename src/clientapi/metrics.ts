/** The client API's Prometheus metrics (GET /metrics, docs/operations.md), read from its database when scraped. */
import { Gauge, Registry } from "prom-client";
import { countKeyRequestsByState } from "./keyRequests/store.js";
import { KEY_REQUEST_STATE_NAMES } from "./keyRequests/states.js";
import type { ClientApiDb } from "./tables.js";

export class ClientApiMetrics {
  readonly registry = new Registry();

  constructor(db: ClientApiDb) {
    new Gauge({
      name: "castnet_clientapi_key_requests",
      help: `Signed key requests kept, by state (${KEY_REQUEST_STATE_NAMES.join(", ")}).`,
      labelNames: ["state"] as const,
      registers: [this.registry],
      async collect() {
        const counts = await countKeyRequestsByState(db);
        for (const state of KEY_REQUEST_STATE_NAMES) this.set({ state }, counts.get(state) ?? 0);
      },
    });
  }
}
