import type { Generated } from "kysely";

/** The registry's tables and its migrations ledger are named `registry_…`. */
export const REGISTRY_TABLE_PREFIX = "registry";

/** The registry's tables: the append-only transfer log, who holds each name now, and its own settings. */
export interface RegistryTables {
  registry_transfers: {
    id: Generated<number>;
    /** Unix seconds, as the client signed it. */
    timestamp: number;
    username: string;
    /** 20 bytes. */
    owner: Uint8Array;
    from_fid: number;
    to_fid: number;
    user_signature: Uint8Array;
    server_signature: Uint8Array;
    /** The `fid` the request named, if any (an admin fid for admin transfers). */
    user_fid: number | null;
  };
  /**
   * The current holder of every held name. Kept in the same transaction as each transfer; its two
   * unique keys make "one name, two fids" and "one fid, two names" impossible whatever the code does.
   */
  registry_names: { name: string; fid: number };
  registry_settings: { key: string; value: string };
}
