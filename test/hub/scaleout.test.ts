/**
 * Scale-out: two hub processes (two pools) on one PostgreSQL database take conflicting messages
 * for the same fids at the same time. The final state must be what one hub makes of the same
 * messages, counts must match the rows, on-chain events must merge once, and event ids must stay
 * unique and increasing.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Hub } from "../../src/hub/index.js";
import type { HubTables } from "../../src/hub/data/tables.js";
import { openDatabase, type Database } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import {
  castAdd,
  core,
  encode,
  get,
  newAccount,
  options,
  protocolNow,
  startStack,
  unwrap,
  verificationAdd,
  type Account,
  type Json,
  type Stack,
} from "./support.js";

const postgres = (await testEngines()).find((e) => e.engine === "postgres")!;

/** Competing messages for the accounts: ties, removes, cross-fid verifications of one address. */
async function conflictingMessages(accounts: Account[]): Promise<core.Message[]> {
  const base = protocolNow() - 500;
  const messages: core.Message[] = [];
  const wallet = privateKeyToAccount(generatePrivateKey());
  for (const [i, account] of accounts.entries()) {
    const casts = await Promise.all([0, 1, 2].map((n) => castAdd(account, `cast ${n}`, {}, base + n)));
    messages.push(...casts);
    messages.push(
      unwrap(
        await core.makeCastRemove({ targetHash: casts[1]!.hash }, options(account, base), account.signer),
      ),
    );
    for (const t of [0, 1, 1, 2]) {
      const body = { type: 1, targetUrl: "https://example.com/shared" };
      messages.push(
        unwrap(await core.makeReactionAdd(body, options(account, base + 10 + t), account.signer)),
      );
      messages.push(
        unwrap(await core.makeReactionRemove(body, options(account, base + 10 + t), account.signer)),
      );
    }
    for (const [n, target] of [1, 2, 3].entries()) {
      const body = { type: "follow", targetFid: accounts[(i + target) % accounts.length]!.fid };
      messages.push(unwrap(await core.makeLinkAdd(body, options(account, base + 20 + n), account.signer)));
      messages.push(
        unwrap(await core.makeLinkRemove(body, options(account, base + 20 + (n % 2)), account.signer)),
      );
    }
    for (const value of ["a", "b", "c"]) {
      messages.push(
        unwrap(await core.makeUserDataAdd({ type: 3, value }, options(account, base + 30), account.signer)),
      );
    }
    // Every fid verifies the same address: one fid at a time holds it.
    messages.push((await verificationAdd(account, wallet, base + 40 + (i % 2))).message);
  }
  return messages;
}

async function stateOf(database: Database<HubTables>, fids: number[]) {
  const rows = await database.db
    .selectFrom("hub_messages")
    .select(["fid", "store", "hash"])
    .where("fid", "in", fids)
    .execute();
  const hashes = rows.map((r) => Buffer.from(r.hash).toString("hex")).sort();
  const counted = await database.db
    .selectFrom("hub_store_counts")
    .select(["fid", "store", "count"])
    .where("fid", "in", fids)
    .where("count", ">", 0)
    .execute();
  const actual = new Map<string, number>();
  for (const r of rows) actual.set(`${r.fid}:${r.store}`, (actual.get(`${r.fid}:${r.store}`) ?? 0) + 1);
  const counts = new Map(counted.map((c) => [`${c.fid}:${c.store}`, Number(c.count)]));
  return { hashes, counts, actual };
}

async function allEvents(hub: Hub): Promise<Json[]> {
  const events: Json[] = [];
  for (let from = 0; ;) {
    const page = (await get(hub, `/v1/events?from_event_id=${from}`)).body;
    events.push(...page.events);
    if (page.events.length < 100) return events;
    from = page.nextPageEventId;
  }
}

describe("two hub processes on one PostgreSQL database", { skip: postgres.skip }, () => {
  let stack: Stack;
  let second: Hub;
  let single: Hub;
  let shared: Database<HubTables>;
  let alone: Database<HubTables>;
  let dropAlone: () => Promise<void>;
  before(async () => {
    stack = await startStack(postgres);
    second = await stack.startHub();
    const created = await postgres.create();
    dropAlone = created.drop;
    single = await stack.startHub({ database: created.config });
    shared = openDatabase<HubTables>(stack.config);
    alone = openDatabase<HubTables>(created.config);
  });
  after(async () => {
    await shared?.close();
    await alone?.close();
    await stack?.close();
    await dropAlone?.();
  });

  it("ends where one hub ends, with consistent counts, events and pages", async () => {
    const accounts = [];
    for (let i = 0; i < 4; i++) accounts.push(await newAccount(stack));
    await Promise.all([second.service.syncChain(), single.service.syncChain()]);
    const messages = await conflictingMessages(accounts);
    const fids = accounts.map((a) => a.fid);

    // Both processes at once, each message to one of them, in a shuffled order.
    const shuffled = messages
      .map((m, i) => ({ m, key: (i * 7919) % messages.length }))
      .sort((a, b) => a.key - b.key);
    const hubs = [stack.hub, second];
    await Promise.all(
      shuffled.map(({ m }, i) => hubs[i % 2]!.service.submitMessage(encode(m)).catch(() => undefined)),
    );
    for (const m of messages) await single.service.submitMessage(encode(m)).catch(() => undefined);

    const together = await stateOf(shared, fids);
    const apart = await stateOf(alone, fids);
    assert.deepEqual(together.hashes, apart.hashes);
    assert.deepEqual(together.counts, together.actual);
    assert.deepEqual(apart.counts, apart.actual);
    const verifiers = await shared.db
      .selectFrom("hub_messages")
      .select("fid")
      .where("fid", "in", fids)
      .where("store", "=", 5)
      .execute();
    assert.equal(verifiers.length, 1, "one fid holds the shared address");

    // One event log, seen the same from both processes: unique, increasing ids; each on-chain event once.
    const fromFirst = await allEvents(stack.hub);
    assert.deepEqual(await allEvents(second), fromFirst);
    const ids = fromFirst.map((e) => e.id);
    assert.deepEqual(
      ids,
      [...new Set(ids)].sort((a, b) => a - b),
    );
    const onChain = fromFirst.filter((e) => e.type === "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT");
    const keys = onChain.map(
      (e) =>
        `${e.mergeOnChainEventBody.onChainEvent.blockNumber}:${e.mergeOnChainEventBody.onChainEvent.logIndex}`,
    );
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(onChain.length, (await stack.chain.chain.eventsFromBlock(0, 1000)).length);

    // Pages are stable across processes: walking a fid's reactions page by page from alternating hubs.
    const fid = fids[0]!;
    const seen: string[] = [];
    let token = "";
    for (let i = 0; ; i++) {
      const page = (
        await get(hubs[i % 2]!, `/v1/castsByFid?fid=${fid}&pageSize=1&pageToken=${encodeURIComponent(token)}`)
      ).body;
      seen.push(...page.messages.map((m: Json) => m.hash));
      token = page.nextPageToken;
      if (token === "") break;
    }
    const whole = (await get(single, `/v1/castsByFid?fid=${fid}`)).body.messages.map((m: Json) => m.hash);
    assert.deepEqual(seen, whole);
  });
});
