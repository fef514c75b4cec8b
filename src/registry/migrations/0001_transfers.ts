import { sql } from "kysely";
import { bytesType, serialType, type Migration } from "../../storage/index.js";

export const transfers: Migration = {
  async up(db, engine) {
    const bytes = bytesType(engine);
    await db.schema
      .createTable("registry_transfers")
      // AUTOINCREMENT on SQLite: ids are never reused, so a follower's last id stays meaningful.
      .addColumn("id", serialType(engine), (c) =>
        engine === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
      )
      .addColumn("timestamp", "bigint", (c) => c.notNull())
      .addColumn("username", "text", (c) => c.notNull())
      .addColumn("owner", bytes, (c) => c.notNull())
      .addColumn("from_fid", "bigint", (c) => c.notNull())
      .addColumn("to_fid", "bigint", (c) => c.notNull())
      .addColumn("user_signature", bytes, (c) => c.notNull())
      .addColumn("server_signature", bytes, (c) => c.notNull())
      .addColumn("user_fid", "bigint")
      .addCheckConstraint("registry_transfers_moves", sql`from_fid <> to_fid`)
      .execute();
    await db.schema
      .createIndex("registry_transfers_username_id")
      .on("registry_transfers")
      .columns(["username", "id"])
      .execute();
    await db.schema
      .createIndex("registry_transfers_from_id")
      .on("registry_transfers")
      .columns(["from_fid", "id"])
      .execute();
    await db.schema
      .createIndex("registry_transfers_to_id")
      .on("registry_transfers")
      .columns(["to_fid", "id"])
      .execute();
    await db.schema
      .createIndex("registry_transfers_timestamp_id")
      .on("registry_transfers")
      .columns(["timestamp", "id"])
      .execute();

    await db.schema
      .createTable("registry_names")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("fid", "bigint", (c) => c.notNull().unique())
      .addCheckConstraint("registry_names_fid_positive", sql`fid > 0`)
      .execute();

    await db.schema
      .createTable("registry_settings")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute();
  },
};
