import type { Migration } from "../../storage/index.js";
import { initial } from "./0001_initial.js";
import { readPath } from "./0002_read_path.js";

export const migrations: Record<string, Migration> = {
  "0001_initial": initial,
  "0002_read_path": readPath,
};
