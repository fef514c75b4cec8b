import type { Migration } from "../../storage/index.js";
import { initial } from "./0001_initial.js";

export const migrations: Record<string, Migration> = { "0001_initial": initial };
