import type { Migration } from "../../storage/index.js";
import { hub } from "./0001_hub.js";

export const hubMigrations: Record<string, Migration> = { "0001_hub": hub };
