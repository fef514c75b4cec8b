import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import {
  type Database,
  type Migration,
  bytesType,
  migrate,
  openDatabase,
  PooledText,
  serialType,
  serializedTransaction,
} from "../../src/storage/index.js";
import { TEXT_HEAD } from "../../src/storage/pooledText.js";
import { testEngines } from "../support/databases.js";

interface Tables {
  demo_counters: { name: string; value: number };
  demo_log: { id: number | undefined; payload: Uint8Array };
}

const migrations: Record<string, Migration> = {
  "0001_counters": {
    async up(db) {
      await db.schema
        .createTable("demo_counters")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("value", "bigint", (c) => c.notNull())
        .execute();
    },
  },
  "0002_log": {
    async up(db, engine) {
      await db.schema
        .createTable("demo_log")
        .addColumn("id", serialType(engine), (c) =>
          engine === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn("payload", bytesType(engine), (c) => c.notNull())
        .execute();
    },
  },
};

for (const engine of await testEngines()) {
  describe(`storage on ${engine.engine}`, { skip: engine.skip }, () => {
    let database: Database<Tables>;
    let second: Database<Tables>;
    let drop: () => Promise<void>;
    const reported: [number, number][] = [];

    before(async () => {
      const created = await engine.create();
      drop = created.drop;
      database = openDatabase<Tables>(created.config);
      // A second pool plays a second server process on the same database. better-sqlite3 blocks the
      // event loop while it waits for the file lock, so on SQLite a second process is the only way.
      second = engine.engine === "postgres" ? openDatabase<Tables>(created.config) : database;
      await migrate(database, "demo", migrations, (applied, pending) => reported.push([applied, pending]));
    });
    after(async () => {
      await database?.close();
      if (second !== database) await second?.close();
      await drop?.();
    });

    it("reports migrations as they apply, and nothing when none is pending", async () => {
      assert.deepEqual(reported, [
        [0, 2],
        [1, 2],
        [2, 2],
      ]);
      const again: [number, number][] = [];
      await migrate(database, "demo", migrations, (applied, pending) => again.push([applied, pending]));
      assert.deepEqual(again, []);
      // A database one migration behind is told of that one only.
      const table = (name: string): Migration => ({
        up: (db) => db.schema.createTable(name).addColumn("x", "text").execute(),
      });
      await migrate(database, "extra", { "0001_a": table("extra_a") });
      const onlyNew: [number, number][] = [];
      await migrate(
        database,
        "extra",
        { "0001_a": table("extra_a"), "0002_b": table("extra_b") },
        (applied, pending) => onlyNew.push([applied, pending]),
      );
      assert.deepEqual(onlyNew, [
        [0, 1],
        [1, 1],
      ]);
    });

    it("runs migrations once and records them", async () => {
      await migrate(database, "demo", migrations);
      const rows = await sql<{ name: string }>`select name from demo_migrations order by name`.execute(
        database.db,
      );
      assert.deepEqual(
        rows.rows.map((r) => r.name),
        ["0001_counters", "0002_log"],
      );
    });

    it("stores bytes and 64-bit integers exactly", async () => {
      const payload = new Uint8Array([0, 1, 2, 254, 255]);
      const inserted = await database.db
        .insertInto("demo_log")
        .values({ id: undefined, payload })
        .returning("id")
        .executeTakeFirstOrThrow();
      const row = await database.db
        .selectFrom("demo_log")
        .selectAll()
        .where("id", "=", inserted.id!)
        .executeTakeFirstOrThrow();
      assert.deepEqual(new Uint8Array(row.payload), payload);
      assert.equal(typeof row.id, "number");
      await database.db
        .insertInto("demo_counters")
        .values({ name: "big", value: 2 ** 52 + 1 })
        .execute();
      const big = await database.db
        .selectFrom("demo_counters")
        .select("value")
        .where("name", "=", "big")
        .executeTakeFirstOrThrow();
      assert.equal(big.value, 2 ** 52 + 1);
    });

    it("reads column by column: every value exact, in the query's order, and empty columns for no rows", async () => {
      const names = ['a "quoted", comma', "Café 日本 🎉", "back\\slash\nline\u0001", "plain"];
      await database.db
        .insertInto("demo_counters")
        .values(names.map((name, i) => ({ name, value: i === 0 ? -(2 ** 52) : 2 ** 40 + i })))
        .execute();
      const page = (since: number) =>
        database.db
          .selectFrom("demo_counters")
          .select(["value", "name"])
          .select(sql<string | null>`null`.as("nothing"))
          .where("name", "in", names)
          .where("value", ">=", since)
          .orderBy("value", "desc")
          .compile();
      assert.deepEqual(await database.readColumns(page(-(2 ** 53)), ["name", "value", "nothing"]), {
        name: [names[3], names[2], names[1], names[0]],
        value: [2 ** 40 + 3, 2 ** 40 + 2, 2 ** 40 + 1, -(2 ** 52)],
        nothing: [null, null, null, null],
      });
      // Some of the columns, in another order; then the same query with no rows.
      assert.deepEqual(await database.readColumns(page(2 ** 40 + 2), ["value", "name"]), {
        value: [2 ** 40 + 3, 2 ** 40 + 2],
        name: [names[3], names[2]],
      });
      assert.deepEqual(await database.readColumns(page(2 ** 50), ["name", "value"]), { name: [], value: [] });
    });

    it("binds a limit so that SQLite plans the statement once, and each run keeps its own limit", async () => {
      const names = ["limit-a", "limit-b", "limit-c", "limit-d"];
      await database.db
        .insertInto("demo_counters")
        .values(names.map((name, value) => ({ name, value })))
        .execute();
      const first = (limit: number) =>
        database.db
          .selectFrom("demo_counters")
          .select("name")
          .where("name", "like", "limit-%")
          .orderBy("value")
          .limit(limit);
      // A bare `limit ?` would make SQLite parse and plan the statement again at every run.
      assert.match(first(1).compile().sql, engine.engine === "sqlite" ? /limit \+\?$/ : /limit \$2$/);
      for (const [limit, expected] of [
        [2, names.slice(0, 2)],
        [3, names.slice(0, 3)],
        [0, []],
        [10, names],
      ] as const) {
        const rows = await first(limit).execute();
        assert.deepEqual(
          rows.map((row) => row.name),
          expected,
        );
      }
    });

    it("serialises concurrent read-modify-write transactions on one key", async () => {
      await database.db.insertInto("demo_counters").values({ name: "c", value: 0 }).execute();
      const others = [database, second];
      const increment = (db: Database<Tables>) =>
        serializedTransaction(db, "counter:c", async (trx) => {
          const row = await trx
            .selectFrom("demo_counters")
            .select("value")
            .where("name", "=", "c")
            .executeTakeFirstOrThrow();
          await new Promise((resolve) => setTimeout(resolve, 1));
          await trx
            .updateTable("demo_counters")
            .set({ value: Number(row.value) + 1 })
            .where("name", "=", "c")
            .execute();
        });
      await Promise.all(Array.from({ length: 40 }, (_, i) => increment(others[i % others.length]!)));
      const row = await database.db
        .selectFrom("demo_counters")
        .select("value")
        .where("name", "=", "c")
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.value), 40);
    });

    it("rolls back everything when the work throws", async () => {
      await assert.rejects(
        serializedTransaction(database, "k", async (trx) => {
          await trx.insertInto("demo_counters").values({ name: "partial", value: 1 }).execute();
          throw new Error("boom");
        }),
        /boom/,
      );
      const row = await database.db
        .selectFrom("demo_counters")
        .selectAll()
        .where("name", "=", "partial")
        .executeTakeFirst();
      assert.equal(row, undefined);
    });
  });
}

describe("serializedTransaction on a SQLite file", () => {
  it("waits for a write lock held by another connection without blocking the event loop", async () => {
    const dir = mkdtempSync(join(tmpdir(), "castnet-busy-"));
    const path = join(dir, "busy.sqlite");
    const database = openDatabase<Tables>({ engine: "sqlite", path });
    const other = new SQLite(path);
    try {
      await migrate(database, "demo", migrations);
      other.exec("begin immediate");
      // Released by a timer: a thread asleep in SQLite's busy handler would never get to run it.
      const released = new Promise((resolve) => setTimeout(resolve, 300)).then(() => other.exec("commit"));
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 10);
      await serializedTransaction(database, "k", async (trx) => {
        await trx.insertInto("demo_counters").values({ name: "after-busy", value: 1 }).execute();
      });
      clearInterval(ticker);
      await released;
      assert.ok(ticks >= 10, `the event loop ran ${ticks} timer ticks while waiting`);
      const row = await database.db
        .selectFrom("demo_counters")
        .select("value")
        .where("name", "=", "after-busy")
        .executeTakeFirst();
      assert.equal(Number(row?.value), 1);
      // Other statements still wait for locks as before.
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db);
      assert.deepEqual(rows, [{ timeout: 10_000 }]);
    } finally {
      other.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("reads on reader threads of a SQLite file", () => {
  it("answer like the calling thread, see every commit made before them, and bind bytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "castnet-readers-"));
    const path = join(dir, "readers.sqlite");
    const database = openDatabase<Tables>({ engine: "sqlite", path }, { readers: 2 });
    const plain = openDatabase<Tables>({ engine: "sqlite", path });
    try {
      await migrate(database, "demo", migrations);
      const payload = Buffer.from([0, 1, 2, 254, 255]);
      const byPayload = (db: Database<Tables>["db"]) =>
        db.selectFrom("demo_log").select(["id", "payload"]).where("payload", "=", payload).compile();
      for (let i = 0; i < 5; i++) {
        await database.db.insertInto("demo_log").values({ id: undefined, payload }).execute();
        // Each read follows a commit made a moment before, on the other connection.
        const rows = await database.read(byPayload(database.db));
        assert.equal(rows.length, i + 1);
        assert.ok(Buffer.isBuffer(rows[0]!.payload));
        assert.deepEqual(rows, await plain.read(byPayload(plain.db)));
      }
      const text = await database.read(
        sql<{ s: string }>`select group_concat(id, ',') as s from demo_log`.compile(database.db),
      );
      assert.deepEqual(text, [{ s: "1,2,3,4,5" }]);
      await assert.rejects(
        database.read(sql`select * from no_such_table`.compile(database.db)),
        /no such table: no_such_table/,
      );
    } finally {
      await plain.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("long texts from reader threads, in slots of memory shared with them", () => {
  it("hold the text exactly, come as strings while the one slot is taken or when a text does not fit, and free the slot after a release or an error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "castnet-slots-"));
    const database = openDatabase<Tables>(
      { engine: "sqlite", path: join(dir, "slots.sqlite") },
      { readers: 1, readerSlots: { count: 1, bytes: 1024 } },
    );
    try {
      await migrate(database, "demo", migrations);
      const names = ["plain", "héllo", "✓ done", "🦀 crab"];
      for (const name of names)
        await database.db.insertInto("demo_counters").values({ name, value: 1 }).execute();
      const joined = names.join(",");
      const page = (where = sql`1 = 1`) =>
        sql<{ s: string | null; n: number }>`select group_concat(name, ',') as s, count(*) as n
          from (select name from demo_counters where ${where} order by rowid)`.compile(database.db);

      const [first] = await database.readLongText(page(), "s");
      assert.ok(first!.s instanceof PooledText);
      assert.equal(first!.n, 4);
      assert.equal(first!.s.framed("", "").toString(), joined);
      assert.equal(first!.s.byteLength, Buffer.byteLength(joined));
      assert.equal(first!.s.framed('{"a":[', "]}").toString(), `{"a":[${joined}]}`);
      // A head longer than the room before the text: the same bytes, copied.
      const longHead = `{"${"h".repeat(TEXT_HEAD)}":[`;
      assert.equal(first!.s.framed(longHead, "]}").toString(), `${longHead}${joined}]}`);

      // The only slot is taken: the next text is a string.
      assert.deepEqual(await database.readLongText(page(), "s"), [{ s: joined, n: 4 }]);
      first!.s.release();
      first!.s.release();
      const [again] = await database.readLongText(page(), "s");
      assert.ok(again!.s instanceof PooledText);
      assert.equal(again!.s.framed("", "").toString(), joined);
      again!.s.release();

      // A refused read frees its slot.
      await assert.rejects(
        database.readLongText(sql<{ s: string }>`select s from no_such_table`.compile(database.db), "s"),
        /no such table/,
      );
      // So does a text longer than the slot's room, which comes as a string.
      const long = "x".repeat(1024);
      await database.db.insertInto("demo_counters").values({ name: long, value: 1 }).execute();
      assert.deepEqual(await database.readLongText(page(sql`name = ${long}`), "s"), [{ s: long, n: 1 }]);
      const [last] = await database.readLongText(page(sql`name <> ${long}`), "s");
      assert.ok(last!.s instanceof PooledText);
      assert.equal(last!.s.framed("", "").toString(), joined);
      last!.s.release();
      // No rows: no text, and nothing held.
      assert.deepEqual(await database.readLongText(page(sql`0 = 1`), "s"), [{ s: null, n: 0 }]);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("reads on the calling thread of SQLite", () => {
  it("run together on a connection of their own, each answered or refused alone, seeing what was committed when they were asked", async () => {
    const dir = mkdtempSync(join(tmpdir(), "castnet-batched-"));
    const database = openDatabase<Tables>({ engine: "sqlite", path: join(dir, "batched.sqlite") });
    try {
      await migrate(database, "demo", migrations);
      const count = () =>
        database.read(sql<{ n: number }>`select count(*) as n from demo_log`.compile(database.db));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const writing = database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("demo_log")
          .values({ id: undefined, payload: Buffer.from([1]) })
          .execute();
        await held;
      });
      // Kysely's connection is held by the open transaction: these reads do not queue behind it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const [during, refused, again] = await Promise.all([
        count(),
        database.read(sql`select * from no_such_table`.compile(database.db)).catch((error: Error) => error),
        count(),
      ]);
      assert.deepEqual(during, [{ n: 0 }]);
      assert.deepEqual(again, [{ n: 0 }]);
      assert.match(String(refused), /no such table: no_such_table/);
      release();
      await writing;
      assert.deepEqual(await count(), [{ n: 1 }]);
      await database.db
        .insertInto("demo_log")
        .values({ id: undefined, payload: Buffer.from([2]) })
        .execute();
      assert.deepEqual(await count(), [{ n: 2 }]);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
