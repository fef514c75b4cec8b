import type { Migration } from "../../storage/index.js";

/**
 * Sign In With Farcaster channels (the relay, docs/clientapi.md "Sign in"): one row per channel an
 * app opened, completed once by the user's client app, deleted once its completed answer is
 * delivered or its hour is over. Indexes find the expired ones the background loop deletes.
 */
export const signInChannels: Migration = {
  async up(db) {
    await db.schema
      .createTable("api_sign_in_channels")
      .addColumn("token", "text", (c) => c.primaryKey())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("nonce", "text", (c) => c.notNull())
      .addColumn("siwe_uri", "text", (c) => c.notNull())
      .addColumn("domain", "text", (c) => c.notNull())
      .addColumn("not_before", "text")
      .addColumn("expiration_time", "text")
      .addColumn("request_id", "text")
      .addColumn("redirect_url", "text")
      .addColumn("accept_auth_address", "integer")
      .addColumn("client_ip", "text", (c) => c.notNull())
      .addColumn("user_agent", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("message", "text")
      .addColumn("signature", "text")
      .addColumn("auth_method", "text")
      .addColumn("fid", "bigint")
      .addColumn("username", "text")
      .addColumn("display_name", "text")
      .addColumn("bio", "text")
      .addColumn("pfp_url", "text")
      .addColumn("custody", "text")
      .addColumn("verifications", "text")
      .execute();
    await db.schema
      .createIndex("api_sign_in_channels_by_expiry")
      .on("api_sign_in_channels")
      .column("expires_at")
      .execute();
  },
};
