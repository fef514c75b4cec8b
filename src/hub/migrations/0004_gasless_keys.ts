import { sql } from "kysely";
import type { Migration } from "../../storage/index.js";
import { bytesType } from "../../storage/index.js";

/**
 * Keys added by KEY_ADD messages (merge/gaslessKeys.ts), one row per (fid, key) and a key held by
 * one fid at most, and the two nonce counters of gasless keys: a fid's user nonce and an app's.
 */
export const gaslessKeys: Migration = {
  async up(db, engine) {
    const bytes = bytesType(engine);
    await db.schema
      .createTable("hub_gasless_keys")
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("key", bytes, (c) => c.notNull())
      .addColumn("request_fid", "bigint", (c) => c.notNull())
      .addColumn("scopes", "bigint", (c) => c.notNull())
      .addColumn("ttl", "bigint", (c) => c.notNull())
      .addColumn("nonce", "bigint", (c) => c.notNull())
      .addColumn("added_at", "bigint", (c) => c.notNull())
      .addColumn("last_used_at", "bigint", (c) => c.notNull())
      .addColumn("message", bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint("hub_gasless_keys_pk", ["fid", "key"])
      .$call((table) => (engine === "sqlite" ? table.modifyEnd(sql`without rowid`) : table))
      .execute();
    await db.schema
      .createIndex("hub_gasless_keys_key")
      .on("hub_gasless_keys")
      .column("key")
      .unique()
      .execute();
    await db.schema
      .createTable("hub_key_nonces")
      .addColumn("fid", "bigint", (c) => c.primaryKey())
      .addColumn("user_nonce", "bigint", (c) => c.notNull().defaultTo(0))
      .addColumn("app_nonce", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
