import type { Migration } from "../../storage/index.js";

/**
 * Drops the (fid, signer) index: only a key's revocation reads by signer, and it can scan the fid's
 * rows instead, while every merge paid for the index with one more page written.
 */
export const noSignerIndex: Migration = {
  async up(db) {
    await db.schema.dropIndex("hub_messages_signer").execute();
  },
};
