import type { Migration } from "../../storage/index.js";
import { chain } from "./0001_chain.js";

export const devchainMigrations: Record<string, Migration> = { "0001_chain": chain };
