import type { Migration } from "../../storage/index.js";

/**
 * Quick Auth (docs/clientapi.md, "Quick Auth"): the nonces handed out, each used once, and the RSA
 * keys that sign its tokens, kept in the database so that every process sharing it signs with the
 * same key and serves the same key set.
 */
export const quickAuth: Migration = {
  async up(db) {
    await db.schema
      .createTable("api_quick_auth_nonces")
      .addColumn("nonce", "text", (c) => c.primaryKey())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("api_quick_auth_nonces_by_expiry")
      .on("api_quick_auth_nonces")
      .column("expires_at")
      .execute();
    await db.schema
      .createTable("api_quick_auth_keys")
      .addColumn("kid", "text", (c) => c.primaryKey())
      .addColumn("private_key", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("signs_from", "bigint", (c) => c.notNull())
      .addColumn("retired_at", "bigint")
      .execute();
  },
};
