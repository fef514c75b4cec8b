/** The hub's migrations over data written before them. */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { StoreType } from "../../src/hub/data/keys.js";
import { castByHashRange } from "../../src/hub/data/messageReads.js";
import { hubMigrations } from "../../src/hub/migrations/index.js";
import type { HubTables } from "../../src/hub/data/tables.js";
import { MessageType } from "../../src/protocol/generated/message.js";
import { migrate, openDatabase } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";

function castRow(fid: number, hash: Uint8Array) {
  return {
    fid,
    store: StoreType.CASTS,
    ts_hash: new Uint8Array([0, 0, 0, 1, ...hash]),
    set_key: hash,
    type: MessageType.CAST_ADD,
    timestamp: 1,
    hash,
    signer: new Uint8Array(32),
    kind: null,
    target: null,
    target_fid: null,
    message: new Uint8Array([1]),
    json: `{"fid":${fid}}`,
    json_profile: "neutral",
  };
}

for (const engine of await testEngines()) {
  describe(`hub migrations on ${engine.engine}`, { skip: engine.skip }, () => {
    it("0003 keeps every stored message, finds a cast by its hash, and still refuses a second row of a set key", async () => {
      const { config, drop } = await engine.create();
      const database = openDatabase<HubTables>(config);
      try {
        const earlier = Object.fromEntries(Object.entries(hubMigrations).filter(([name]) => name < "0003"));
        await migrate(database, "hub", earlier);
        const hashes = Array.from({ length: 50 }, () => new Uint8Array(randomBytes(20)));
        await database.db
          .insertInto("hub_messages")
          .values(hashes.map((hash, i) => castRow(100 + (i % 7), hash)))
          .execute();

        await migrate(database, "hub", hubMigrations);
        const count = await database.db
          .selectFrom("hub_messages")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirst();
        assert.equal(Number(count?.n), hashes.length);
        for (const [i, hash] of hashes.entries()) {
          const found = await castByHashRange(database.db, hash, hash);
          assert.equal(found?.json, `{"fid":${100 + (i % 7)}}`);
        }
        const again = { ...castRow(100, hashes[0]!), ts_hash: new Uint8Array([0, 0, 0, 2, ...hashes[0]!]) };
        await assert.rejects(database.db.insertInto("hub_messages").values(again).execute());
      } finally {
        await database.close();
        await drop();
      }
    });
  });
}
