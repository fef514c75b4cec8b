import type { Migration } from "../../storage/index.js";
import { bytesType } from "../../storage/index.js";

export const chain: Migration = {
  async up(db, engine) {
    const bytes = bytesType(engine);
    await db.schema
      .createTable("chain_blocks")
      .addColumn("number", "bigint", (c) => c.primaryKey())
      .addColumn("hash", bytes, (c) => c.notNull().unique())
      .addColumn("parent_hash", bytes, (c) => c.notNull())
      .addColumn("timestamp", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("chain_transactions")
      .addColumn("seq", "bigint", (c) => c.primaryKey())
      .addColumn("hash", bytes, (c) => c.notNull().unique())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("block_number", "bigint")
      .addColumn("tx_index", "integer")
      .execute();
    await db.schema
      .createIndex("chain_transactions_pending")
      .on("chain_transactions")
      .columns(["block_number", "seq"])
      .execute();
    await db.schema
      .createTable("chain_fids")
      .addColumn("fid", "bigint", (c) => c.primaryKey())
      .addColumn("custody", "text", (c) => c.notNull().unique())
      .addColumn("recovery", "text", (c) => c.notNull())
      .addColumn("tx_seq", "bigint", (c) => c.notNull().unique())
      .addColumn("block_number", "bigint")
      .execute();
    await db.schema
      .createTable("chain_signers")
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("key", bytes, (c) => c.notNull())
      .addColumn("key_type", "integer", (c) => c.notNull())
      .addColumn("metadata_type", "integer", (c) => c.notNull())
      .addColumn("metadata", bytes, (c) => c.notNull())
      .addColumn("add_tx_seq", "bigint", (c) => c.notNull().unique())
      .addColumn("added_block", "bigint")
      .addColumn("remove_tx_seq", "bigint", (c) => c.unique())
      .addColumn("removed_block", "bigint")
      .addPrimaryKeyConstraint("chain_signers_pk", ["fid", "key"])
      .execute();
    await db.schema
      .createTable("chain_storage")
      .addColumn("tx_seq", "bigint", (c) => c.primaryKey())
      .addColumn("fid", "bigint", (c) => c.notNull())
      .addColumn("units", "integer", (c) => c.notNull())
      .addColumn("payer", "text", (c) => c.notNull())
      .addColumn("block_number", "bigint")
      .addColumn("expires_at", "bigint")
      .execute();
    await db.schema.createIndex("chain_storage_fid").on("chain_storage").column("fid").execute();
    await db.schema
      .createTable("chain_events")
      .addColumn("block_number", "bigint", (c) => c.notNull())
      .addColumn("log_index", "integer", (c) => c.notNull())
      .addColumn("tx_seq", "bigint", (c) => c.notNull())
      .addColumn("event", bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint("chain_events_pk", ["block_number", "log_index"])
      .execute();
    await db.schema.createIndex("chain_events_tx").on("chain_events").column("tx_seq").execute();
  },
};
