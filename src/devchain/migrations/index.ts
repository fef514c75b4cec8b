import type { Migration } from "../../storage/index.js";
import { chain } from "./0001_chain.js";
import { ledger } from "./0002_ledger.js";
import { ledgerFromEvents } from "./0003_ledger_from_events.js";
import { servedLogs } from "./0004_served_logs.js";

export const devchainMigrations: Record<string, Migration> = {
  "0001_chain": chain,
  "0002_ledger": ledger,
  "0003_ledger_from_events": ledgerFromEvents,
  "0004_served_logs": servedLogs,
};
