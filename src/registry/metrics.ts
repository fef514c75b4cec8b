/** The registry's Prometheus metrics (GET /metrics, docs/operations.md): what POST /transfers decided. */
import { Counter, Registry } from "prom-client";
import type { RegistryErrorCode } from "./errors.js";

export class RegistryMetrics {
  readonly #grants: Counter;
  readonly #refusals: Counter<"code">;
  readonly registry = new Registry();

  constructor() {
    const registry = this.registry;
    this.#grants = new Counter({
      name: "castnet_registry_transfers_granted_total",
      help: "Name transfers (registrations, moves, releases) accepted by POST /transfers.",
      registers: [registry],
    });
    this.#refusals = new Counter({
      name: "castnet_registry_transfers_refused_total",
      help: "POST /transfers requests refused by the registry's rules or rate limits, by error code.",
      labelNames: ["code"] as const,
      registers: [registry],
    });
  }

  granted(): void {
    this.#grants.inc();
  }

  refused(code: RegistryErrorCode): void {
    this.#refusals.inc({ code });
  }
}
