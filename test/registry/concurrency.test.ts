import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { type Database, openDatabase, serializedTransaction } from "../../src/storage/index.js";
import { type Kysely, sql } from "kysely";
import { SavepointCommits } from "../../src/storage/index.js";
import { recordTransfer } from "../../src/registry/store.js";
import type { RegistryTables } from "../../src/registry/tables.js";
import type { DatabaseConfig } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import { Harness, type HttpReply, type User, failure } from "./support.js";

const CONTENDERS = 50;

function tally(replies: HttpReply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reply of replies) {
    const key =
      reply.status === 200 ? "200" : `${reply.status} ${String(reply.body.code ?? reply.body.error)}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

for (const engine of await testEngines()) {
  describe(`registry under concurrent requests on ${engine.engine}`, { skip: engine.skip }, () => {
    const h = new Harness(engine);
    let config: DatabaseConfig;
    /** Base URLs of the registry processes sharing the database: two pools on PostgreSQL. */
    const urls: string[] = [];
    let users: User[];

    before(async () => {
      await h.start();
      config = h.stack.databases.registry;
      urls.push(h.url);
      if (engine.engine === "postgres") {
        urls.push((await h.startRegistry({ database: config, serverPrivateKey: h.serverKey })).url);
      }
      users = [];
      for (let i = 0; i < CONTENDERS; i++) users.push(await h.user());
    });
    after(() => h.stop());

    it(`gives one name to one of ${CONTENDERS} fids asking at once`, async () => {
      const bodies = await Promise.all(
        users.map((u) => h.body(u.account, { name: "race", from: 0, to: u.fid, fid: u.fid })),
      );
      const replies = await Promise.all(bodies.map((body, i) => h.post(body, urls[i % urls.length])));
      assert.deepEqual(tally(replies), { "200": 1, "400 USERNAME_TAKEN": CONTENDERS - 1 });
      const winner = replies.find((r) => r.status === 200)!.body.transfer as { to: number };
      const history = (await h.get("/transfers?name=race")).body.transfers as { to: number }[];
      assert.deepEqual(
        history.map((t) => t.to),
        [winner.to],
      );
      for (const reply of replies.filter((r) => r.status !== 200))
        assert.deepEqual(reply.body, failure("USERNAME_TAKEN"));
    });

    it(`gives one fid one of ${CONTENDERS} names asked for at once`, async () => {
      const user = await h.user();
      const bodies = await Promise.all(
        Array.from({ length: CONTENDERS }, (_, i) =>
          h.body(user.account, { name: `many${i}`, from: 0, to: user.fid, fid: user.fid }),
        ),
      );
      const replies = await Promise.all(bodies.map((body, i) => h.post(body, urls[i % urls.length])));
      assert.deepEqual(tally(replies), { "200": 1, "400 TOO_MANY_NAMES": CONTENDERS - 1 });
      const history = (await h.get(`/transfers?fid=${user.fid}`)).body.transfers as unknown[];
      assert.equal(history.length, 1);
    });

    it("keeps ids in commit order, so a follower polling from_id misses nothing", async () => {
      const fresh = await Promise.all(Array.from({ length: 20 }, () => h.user()));
      const seen: number[] = [];
      let last = (await h.registry.feed.transfersAfter(0)).length;
      let done = false;
      const follower = (async () => {
        while (!done) {
          for (const t of await h.registry.feed.transfersAfter(last)) {
            seen.push(t.id);
            last = t.id;
          }
          // SQLite answers synchronously: without a pause this loop would starve the HTTP traffic.
          await sleep(2);
        }
      })();
      const replies = await Promise.all(
        fresh.map(async (u, i) =>
          h.post(await h.body(u.account, { name: `order${i}`, from: 0, to: u.fid }), urls[i % urls.length]),
        ),
      );
      done = true;
      await follower;
      for (const t of await h.registry.feed.transfersAfter(last)) seen.push(t.id);
      assert.deepEqual(tally(replies), { "200": 20 });
      const ids = replies.map((r) => (r.body.transfer as { id: number }).id).sort((a, b) => a - b);
      assert.deepEqual(seen, ids);
    });

    describe("the database itself refuses a double registration", () => {
      let database: Database<RegistryTables>;
      before(() => {
        database = openDatabase<RegistryTables>(config);
      });
      after(() => database.close());

      const transfer = (username: string, from: number, to: number) => ({
        timestamp: h.now,
        username,
        owner: "0x0000000000000000000000000000000000000001" as const,
        from,
        to,
        userSignature: "0x01" as const,
        serverSignature: "0x02" as const,
        userFid: undefined,
      });
      const write = (username: string, from: number, to: number) =>
        serializedTransaction(database, "another lock", (trx) =>
          recordTransfer(trx, transfer(username, from, to)),
        );
      const count = async () =>
        Number(
          (
            await database.db
              .selectFrom("registry_transfers")
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );

      describe("group commit", () => {
        const setting = (key: string) => (trx: Kysely<RegistryTables>) =>
          trx.insertInto("registry_settings").values({ key, value: "1" }).execute();
        const keys = async (trx: Kysely<RegistryTables>) =>
          (await trx.selectFrom("registry_settings").select("key").where("key", "like", "group-%").execute())
            .map((row) => row.key)
            .sort();
        let outcomes: PromiseSettledResult<unknown>[];

        before(async () => {
          const commits = new SavepointCommits(database, "registry");
          outcomes = await Promise.allSettled([
            commits.run(setting("group-a")),
            commits.run(async (trx) => {
              await setting("group-b")(trx);
              throw new Error("refused after writing");
            }),
            commits.run(keys),
            commits.run(setting("group-a")),
          ]);
        });

        it("lets each job see the writes of the jobs before it", () => {
          assert.deepEqual((outcomes[2] as PromiseFulfilledResult<string[]>).value, ["group-a"]);
        });

        it("undoes only a refused job's own writes", async () => {
          assert.deepEqual(
            outcomes.map((o) => o.status),
            ["fulfilled", "rejected", "fulfilled", "rejected"],
          );
          assert.deepEqual(await keys(database.db), ["group-a"]);
        });

        it("runs each job of a batch alone when the batch's transaction fails, so one fault fails only its job", async () => {
          const commits = new SavepointCommits(database, "registry");
          const settled = await Promise.allSettled([
            commits.run(setting("group-c")),
            // Ends the transaction under the batch's feet: the batch cannot commit, nor can this job alone.
            commits.run((trx) => sql`rollback`.execute(trx)),
            commits.run(setting("group-d")),
          ]);
          assert.deepEqual(
            settled.map((o) => o.status),
            ["fulfilled", "rejected", "fulfilled"],
          );
          assert.deepEqual(await keys(database.db), ["group-a", "group-c", "group-d"]);
        });
      });

      it("a second holder for a name, a second name for a fid, or a move to the same fid", async () => {
        const before = await count();
        const holder = (await h.get("/transfers?name=race")).body.transfers as { to: number }[];
        const other = users.find((u) => u.fid !== holder[0]!.to)!;
        await assert.rejects(write("race", 0, other.fid));
        await assert.rejects(write("another", 0, holder[0]!.to));
        await assert.rejects(write("same", 7, 7));
        await assert.rejects(write("notheld", other.fid, 0));
        assert.equal(await count(), before);
      });
    });
  });
}
