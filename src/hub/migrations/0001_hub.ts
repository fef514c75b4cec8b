import { sql } from "kysely";
import type { Migration } from "../../storage/index.js";
import { bytesType } from "../../storage/index.js";

export const hub: Migration = {
  async up(db, engine) {
    const bytes = bytesType(engine);
    await db.schema
      .createTable("hub_messages")
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("store", "smallint", (c) => c.notNull())
      .addColumn("ts_hash", bytes, (c) => c.notNull())
      .addColumn("set_key", bytes, (c) => c.notNull())
      .addColumn("type", "smallint", (c) => c.notNull())
      .addColumn("timestamp", "bigint", (c) => c.notNull())
      .addColumn("hash", bytes, (c) => c.notNull())
      .addColumn("signer", bytes, (c) => c.notNull())
      .addColumn("kind", "text")
      .addColumn("target", bytes)
      .addColumn("target_fid", "bigint")
      .addColumn("message", bytes, (c) => c.notNull())
      .addColumn("json", "text", (c) => c.notNull())
      .addColumn("json_profile", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("hub_messages_pk", ["fid", "store", "ts_hash"])
      // Clustered by the primary key on SQLite: a fid's list is then a run of neighbouring pages.
      .$call((table) => (engine === "sqlite" ? table.modifyEnd(sql`without rowid`) : table))
      .execute();
    await db.schema
      .createIndex("hub_messages_set_key")
      .on("hub_messages")
      .columns(["fid", "store", "set_key"])
      .unique()
      .execute();
    await db.schema
      .createIndex("hub_messages_target")
      .on("hub_messages")
      .columns(["store", "target", "ts_hash"])
      .where(sql.ref("target"), "is not", null)
      .execute();
    await db.schema
      .createIndex("hub_messages_signer")
      .on("hub_messages")
      .columns(["fid", "signer"])
      .execute();
    await db.schema
      .createTable("hub_cast_mentions")
      .addColumn("mention_fid", "bigint", (c) => c.notNull())
      .addColumn("ts_hash", bytes, (c) => c.notNull())
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("hub_cast_mentions_pk", ["mention_fid", "ts_hash"])
      .execute();
    await db.schema
      .createTable("hub_store_counts")
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("store", "smallint", (c) => c.notNull())
      .addColumn("count", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("hub_store_counts_pk", ["fid", "store"])
      .execute();
    await db.schema
      .createTable("hub_onchain_events")
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("type", "smallint", (c) => c.notNull())
      .addColumn("block_number", "bigint", (c) => c.notNull())
      .addColumn("log_index", "integer", (c) => c.notNull())
      .addColumn("block_timestamp", "bigint", (c) => c.notNull())
      .addColumn("address", bytes)
      .addColumn("signer", bytes)
      .addColumn("event", bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint("hub_onchain_events_pk", ["fid", "type", "block_number", "log_index"])
      .execute();
    await db.schema
      .createIndex("hub_onchain_events_address")
      .on("hub_onchain_events")
      .columns(["address", "block_number", "log_index"])
      .where(sql.ref("address"), "is not", null)
      .execute();
    await db.schema
      .createTable("hub_signers")
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("key", bytes, (c) => c.notNull())
      .addColumn("event_type", "smallint", (c) => c.notNull())
      .addColumn("key_type", "integer", (c) => c.notNull())
      .addColumn("block_number", "bigint", (c) => c.notNull())
      .addColumn("log_index", "integer", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("hub_signers_pk", ["fid", "key"])
      .execute();
    await db.schema
      .createTable("hub_fids")
      .addColumn("fid", "bigint", (c) => c.primaryKey())
      .addColumn("custody", bytes, (c) => c.notNull())
      .addColumn("block_number", "bigint", (c) => c.notNull())
      .addColumn("log_index", "integer", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("hub_fname_proofs")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("timestamp", "bigint", (c) => c.notNull())
      .addColumn("owner", bytes, (c) => c.notNull())
      .addColumn("signature", bytes, (c) => c.notNull())
      .addColumn("transfer_id", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("hub_fname_proofs_fid").on("hub_fname_proofs").column("fid").execute();
    await db.schema
      .createTable("hub_events")
      .addColumn("id", "bigint", (c) => c.primaryKey())
      .addColumn("type", "smallint", (c) => c.notNull())
      .addColumn("event", bytes, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("hub_event_counter")
      .addColumn("id", "integer", (c) => c.primaryKey())
      .addColumn("last_id", "bigint", (c) => c.notNull())
      .execute();
    await db
      .insertInto("hub_event_counter" as never)
      .values({ id: 1, last_id: 0 } as never)
      .execute();
    await db.schema
      .createTable("hub_state")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute();
  },
};
