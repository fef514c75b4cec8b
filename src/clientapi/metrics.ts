/** The client API's Prometheus metrics (GET /metrics, docs/operations.md), read from its database when scraped. */
import { Gauge, Registry } from "prom-client";
import { countKeyRequestsByState } from "./keyRequestStore.js";
import type { ApiDb, KeyRequestState } from "./tables.js";

const STATES: readonly KeyRequestState[] = ["pending", "submitting", "approved", "completed"];

export function clientApiMetrics(db: ApiDb): Registry {
  const registry = new Registry();
  new Gauge({
    name: "castnet_api_key_requests",
    help: "Signed key requests kept, by state (pending, submitting, approved, completed).",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const counts = await countKeyRequestsByState(db);
      for (const state of STATES) this.set({ state }, counts.get(state) ?? 0);
    },
  });
  return registry;
}
