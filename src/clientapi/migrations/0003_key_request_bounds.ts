import type { Migration } from "../../storage/index.js";

/**
 * Signed key requests: an approval is recorded as "submitting" before its key add goes to the chain,
 * with the custody address and nonce it took, so that it can be resolved against the chain after a
 * crash, or undone when the chain refuses it. Indexes find an identical request again (a repeated
 * POST) and the expired requests the background loop deletes.
 */
export const keyRequestBounds: Migration = {
  async up(db) {
    await db.schema.alterTable("api_signed_key_requests").addColumn("approval_custody", "text").execute();
    await db.schema.alterTable("api_signed_key_requests").addColumn("approval_nonce", "bigint").execute();
    await db.schema
      .createIndex("api_signed_key_requests_by_request")
      .on("api_signed_key_requests")
      .columns(["request_fid", "key"])
      .execute();
    await db.schema
      .createIndex("api_signed_key_requests_by_deadline")
      .on("api_signed_key_requests")
      .column("deadline")
      .execute();
  },
};
