import type { Migration } from "../../storage/index.js";

/**
 * Orders the set-key index by (store, set key, fid) instead of (fid, store, set key). Every merge
 * looks a key up with all three equal, which either order serves alike; led by the store, the same
 * index also finds a cast by its hash alone (a cast's set key is its hash: GET /v1/castByHash),
 * so that no index is added to what every merge writes.
 */
export const setKeyByStore: Migration = {
  async up(db) {
    await db.schema.dropIndex("hub_messages_set_key").execute();
    await db.schema
      .createIndex("hub_messages_set_key")
      .on("hub_messages")
      .columns(["store", "set_key", "fid"])
      .unique()
      .execute();
  },
};
