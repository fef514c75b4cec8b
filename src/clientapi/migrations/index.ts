import type { Migration } from "../../storage/index.js";
import { initial } from "./0001_initial.js";
import { readPath } from "./0002_read_path.js";
import { keyRequestBounds } from "./0003_key_request_bounds.js";
import { signInChannels } from "./0004_sign_in_channels.js";
import { quickAuth } from "./0005_quick_auth.js";

export const clientApiMigrations: Record<string, Migration> = {
  "0001_initial": initial,
  "0002_read_path": readPath,
  "0003_key_request_bounds": keyRequestBounds,
  "0004_sign_in_channels": signInChannels,
  "0005_quick_auth": quickAuth,
};
