import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { openDatabase } from "../../src/storage/index.js";

interface Tables {
  notes: { id: number; body: string };
}

describe("SQLite with background sync", () => {
  const dir = mkdtempSync(join(tmpdir(), "castnet-sync-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe("a database with background sync", () => {
    let path: string;
    let database: ReturnType<typeof openDatabase<Tables>>;

    before(() => {
      path = join(dir, "notes.sqlite");
      database = openDatabase<Tables>({ engine: "sqlite", path }, { pageSize: 16_384, backgroundSync: true });
    });

    it("commits without waiting for the disk", async () => {
      const { rows: mode } = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db);
      assert.equal(mode[0]!.synchronous, 1, "NORMAL: commits do not wait for the disk");
    });

    it("makes commits durable on request, keeping them across a reopen", async () => {
      await database.db.schema
        .createTable("notes")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("body", "text")
        .execute();
      // Many callers at once, some while an fsync is already running: each is answered.
      const writes = Array.from({ length: 50 }, async (_, id) => {
        await database.db
          .insertInto("notes")
          .values({ id, body: `note ${id}` })
          .execute();
        await database.durable();
      });
      await Promise.all(writes);
      await database.close();

      const reopened = openDatabase<Tables>({ engine: "sqlite", path });
      const count = await reopened.db
        .selectFrom("notes")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 50);
      await reopened.close();
    });

    it("keeps the page size it was made with across a reopen", async () => {
      const reopened = openDatabase<Tables>({ engine: "sqlite", path });
      const { rows: size } = await sql<{ page_size: number }>`pragma page_size`.execute(reopened.db);
      assert.equal(size[0]!.page_size, 16_384);
      await reopened.close();
    });
  });

  it("keeps the WAL file bounded under steady writes", async () => {
    const path = join(dir, "steady.sqlite");
    const database = openDatabase<Tables>(
      { engine: "sqlite", path },
      { pageSize: 4096, backgroundSync: true },
    );
    await database.db.schema
      .createTable("notes")
      .addColumn("id", "integer", (c) => c.primaryKey())
      .addColumn("body", "text")
      .execute();
    const body = "x".repeat(3000);
    // About 500 MB through the WAL (three frames a commit), as fast as the machine writes, with no
    // pause for a passive checkpoint to finish. A WAL never rewound would hold all of it; one rewound
    // near 8,192 frames (34 MB of 4 KiB pages), however fast the writes come, holds a fraction.
    for (let id = 0; id < 40_000; id++) {
      await database.db.insertInto("notes").values({ id, body }).execute();
      if (id % 100 === 0) await database.durable();
    }
    await database.durable();
    assert.ok(existsSync(`${path}-wal`));
    const wal = statSync(`${path}-wal`).size;
    assert.ok(wal < 64 * 2 ** 20, `the WAL grew to ${wal} bytes`);
    await database.close();
  });

  it("answers durable() at once when there is nothing to sync", async () => {
    const database = openDatabase<Tables>(
      { engine: "sqlite", path: join(dir, "empty.sqlite") },
      { backgroundSync: true },
    );
    await database.durable();
    await database.close();
  });
});
