import type { Migration } from "../../storage/index.js";
import { hub } from "./0001_hub.js";
import { noSignerIndex } from "./0002_no_signer_index.js";
import { setKeyByStore } from "./0003_set_key_by_store.js";
import { gaslessKeys } from "./0004_gasless_keys.js";

export const hubMigrations: Record<string, Migration> = {
  "0001_hub": hub,
  "0002_no_signer_index": noSignerIndex,
  "0003_set_key_by_store": setKeyByStore,
  "0004_gasless_keys": gaslessKeys,
};
