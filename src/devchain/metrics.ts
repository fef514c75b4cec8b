/** The devchain's Prometheus metrics (GET /metrics, docs/operations.md), read from the chain when scraped. */
import { Gauge, Registry } from "prom-client";
import type { DevchainService } from "./service.js";

export function devchainMetrics(chain: DevchainService): Registry {
  const registry = new Registry();
  new Gauge({
    name: "castnet_devchain_block_number",
    help: "Number of the latest mined block.",
    registers: [registry],
    async collect() {
      this.set(await chain.latestBlockNumber());
    },
  });
  new Gauge({
    name: "castnet_devchain_pending_transactions",
    help: "Transactions submitted and not yet mined.",
    registers: [registry],
    async collect() {
      this.set(await chain.pendingTransactionCount());
    },
  });
  return registry;
}
