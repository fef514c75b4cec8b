import type { Migration } from "../../storage/index.js";
import { transfers } from "./0001_transfers.js";

export const registryMigrations: Record<string, Migration> = {
  "0001_transfers": transfers,
};
