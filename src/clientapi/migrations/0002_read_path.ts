import { sql } from "kysely";
import type { Migration } from "../../storage/index.js";

/**
 * The read path: follower and followed-channel pages read only indexed columns (one index range scan,
 * no lookup per row), and a version number of the channel rows lets every process keep rendered
 * channels in memory and know, with one point read, when they are stale.
 */
export const readPath: Migration = {
  async up(db) {
    await db.schema.dropIndex("api_channel_follows_by_channel").execute();
    await db.schema.dropIndex("api_channel_follows_by_fid").execute();
    await db.schema
      .createIndex("api_channel_follows_by_channel")
      .on("api_channel_follows")
      .columns(["channel_id", "followed_at", "id", "fid"])
      .execute();
    await db.schema
      .createIndex("api_channel_follows_by_fid")
      .on("api_channel_follows")
      .columns(["fid", "followed_at", "id", "channel_id"])
      .execute();
    await db.schema
      .createTable("api_versions")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("version", "bigint", (c) => c.notNull())
      .execute();
    await sql`insert into api_versions (name, version) values ('channels', 0)`.execute(db);
  },
};
