/** The devchain's Prometheus metrics (GET /metrics, docs/operations.md), read from the chain when scraped. */
import { Gauge, Registry } from "prom-client";
import type { DevchainService } from "./service.js";

export class DevchainMetrics {
  readonly registry = new Registry();

  constructor(chain: DevchainService) {
    new Gauge({
      name: "castnet_devchain_block_number",
      help: "Number of the latest mined block.",
      registers: [this.registry],
      async collect() {
        this.set(await chain.latestBlockNumber());
      },
    });
    new Gauge({
      name: "castnet_devchain_pending_transactions",
      help: "Transactions submitted and not yet mined.",
      registers: [this.registry],
      async collect() {
        this.set(await chain.pendingTransactionCount());
      },
    });
  }
}
