import type { Migration } from "../../storage/index.js";
import { bytesType } from "../../storage/index.js";

/**
 * The chain as Ethereum keeps it: every value of the registries' state with the block that wrote it
 * (so a call can read any past block), transactions with their receipts, and logs. The tables of
 * 0001 are converted by 0003 and then dropped.
 */
export const ledger: Migration = {
  async up(db, engine) {
    const bytes = bytesType(engine);
    await db.schema
      .createTable("chain_state")
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("block_number", "bigint", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("chain_state_pk", ["key", "block_number"])
      .execute();
    await db.schema
      .createTable("chain_txs")
      .addColumn("seq", "bigint", (c) => c.primaryKey())
      .addColumn("hash", bytes, (c) => c.notNull().unique())
      .addColumn("sender", "text", (c) => c.notNull())
      .addColumn("recipient", "text")
      .addColumn("nonce", "bigint", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("input", bytes, (c) => c.notNull())
      .addColumn("type", "integer", (c) => c.notNull())
      .addColumn("gas", "bigint", (c) => c.notNull())
      .addColumn("gas_price", "text")
      .addColumn("max_fee", "text")
      .addColumn("max_priority_fee", "text")
      .addColumn("raw", bytes)
      .addColumn("operator", "text")
      .addColumn("block_number", "bigint")
      .addColumn("tx_index", "integer")
      .addColumn("status", "integer")
      .addColumn("gas_used", "bigint")
      .addColumn("effective_gas_price", "text")
      .addColumn("output", bytes)
      .execute();
    await db.schema
      .createIndex("chain_txs_block")
      .on("chain_txs")
      .columns(["block_number", "tx_index"])
      .execute();
    await db.schema.createIndex("chain_txs_sender").on("chain_txs").columns(["sender", "nonce"]).execute();
    await db.schema
      .createTable("chain_logs")
      .addColumn("block_number", "bigint", (c) => c.notNull())
      .addColumn("log_index", "integer", (c) => c.notNull())
      .addColumn("tx_seq", "bigint", (c) => c.notNull())
      .addColumn("address", "text", (c) => c.notNull())
      .addColumn("topic0", bytes)
      .addColumn("topic1", bytes)
      .addColumn("topic2", bytes)
      .addColumn("topic3", bytes)
      .addColumn("data", bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint("chain_logs_pk", ["block_number", "log_index"])
      .execute();
    await db.schema.createIndex("chain_logs_tx").on("chain_logs").column("tx_seq").execute();
    await db.schema
      .alterTable("chain_blocks")
      .addColumn("base_fee_per_gas", "text", (c) => c.notNull().defaultTo("0"))
      .execute();
    await db.schema
      .alterTable("chain_blocks")
      .addColumn("gas_used", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
