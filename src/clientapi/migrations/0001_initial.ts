import type { ColumnDefinitionBuilder } from "kysely";
import { type Migration, serialType } from "../../storage/index.js";

/** Every table of the client API, with the indexes its keyset pages walk. */
export const initial: Migration = {
  async up(db, engine) {
    const serial = serialType(engine);
    const serialKey = (c: ColumnDefinitionBuilder) =>
      engine === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey();

    await db.schema
      .createTable("api_settings")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("api_channels")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("url", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("description_mentions", "text")
      .addColumn("description_mentions_positions", "text")
      .addColumn("image_url", "text", (c) => c.notNull())
      .addColumn("header_image_url", "text")
      .addColumn("lead_fid", "bigint")
      .addColumn("moderator_fid", "bigint")
      .addColumn("moderator_fids", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("follower_count", "bigint", (c) => c.notNull())
      .addColumn("member_count", "bigint")
      .addColumn("pinned_cast_hash", "text")
      .addColumn("public_casting", "integer")
      .addColumn("external_link_title", "text")
      .addColumn("external_link_url", "text")
      .execute();
    await db.schema
      .createIndex("api_channels_by_age")
      .on("api_channels")
      .columns(["created_at", "id"])
      .execute();

    await db.schema
      .createTable("api_channel_follows")
      .addColumn("id", serial, serialKey)
      .addColumn("channel_id", "text", (c) => c.notNull().references("api_channels.id"))
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("followed_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("api_channel_follows_once", ["channel_id", "fid"])
      .execute();
    await db.schema
      .createIndex("api_channel_follows_by_channel")
      .on("api_channel_follows")
      .columns(["channel_id", "followed_at", "id"])
      .execute();
    await db.schema
      .createIndex("api_channel_follows_by_fid")
      .on("api_channel_follows")
      .columns(["fid", "followed_at", "id"])
      .execute();

    await db.schema
      .createTable("api_blocks")
      .addColumn("id", serial, serialKey)
      .addColumn("blocker_fid", "bigint", (c) => c.notNull())
      .addColumn("blocked_fid", "bigint", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("api_blocks_once", ["blocker_fid", "blocked_fid"])
      .execute();
    await db.schema.createIndex("api_blocks_by_age").on("api_blocks").columns(["created_at", "id"]).execute();
    await db.schema
      .createIndex("api_blocks_by_blocker")
      .on("api_blocks")
      .columns(["blocker_fid", "created_at", "id"])
      .execute();

    await db.schema
      .createTable("api_actions")
      .addColumn("id", serial, serialKey)
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("icon", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull())
      .addColumn("about_url", "text", (c) => c.notNull())
      .addColumn("action_url", "text", (c) => c.notNull())
      .addColumn("post_url", "text", (c) => c.notNull())
      .addColumn("image_url", "text")
      .addColumn("install_count", "bigint", (c) => c.notNull())
      .addColumn("featured_rank", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("api_actions_once", ["kind", "action_url"])
      .execute();
    await db.schema
      .createIndex("api_actions_by_users")
      .on("api_actions")
      .columns(["kind", "install_count", "id"])
      .execute();
    await db.schema
      .createIndex("api_actions_featured")
      .on("api_actions")
      .columns(["featured_rank", "id"])
      .execute();

    await db.schema
      .createTable("api_action_installs")
      .addColumn("action_id", "bigint", (c) => c.notNull().references("api_actions.id"))
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("installed_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("api_action_installs_key", ["action_id", "fid"])
      .execute();

    await db.schema
      .createTable("api_power_badge_computed")
      .addColumn("fid", "bigint", (c) => c.primaryKey())
      .execute();
    await db.schema
      .createTable("api_power_badge_overrides")
      .addColumn("fid", "bigint", (c) => c.primaryKey())
      .addColumn("granted", "integer", (c) => c.notNull())
      .addColumn("set_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("api_power_badge_runs")
      .addColumn("id", serial, serialKey)
      .addColumn("slot", "bigint", (c) => c.unique())
      .addColumn("ran_at", "bigint", (c) => c.notNull())
      .addColumn("computed_count", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("api_sponsors")
      .addColumn("fid", "bigint", (c) => c.primaryKey())
      .addColumn("credits", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("api_signed_key_requests")
      .addColumn("token", "text", (c) => c.primaryKey())
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("request_fid", "bigint", (c) => c.notNull())
      .addColumn("request_signer", "text", (c) => c.notNull())
      .addColumn("signature", "text", (c) => c.notNull())
      .addColumn("deadline", "bigint", (c) => c.notNull())
      .addColumn("redirect_url", "text")
      .addColumn("sponsor_fid", "bigint")
      .addColumn("sponsor_signature", "text")
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("user_fid", "bigint")
      .addColumn("transaction_hash", "text")
      .addColumn("charged", "bigint", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("api_signed_key_requests_by_state")
      .on("api_signed_key_requests")
      .column("state")
      .execute();

    await db.schema
      .createTable("api_gateway_nonces")
      .addColumn("custody", "text", (c) => c.primaryKey())
      .addColumn("nonce", "bigint", (c) => c.notNull())
      .execute();
  },
};
