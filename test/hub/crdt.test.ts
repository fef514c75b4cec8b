/**
 * The CRDT property: the same messages merged in any order leave the same state. Each run builds
 * one random script of competing messages for a fresh fid, submits it to two hubs (each on its own
 * database, both following the same chain) in two random orders, and compares what each stored.
 *
 * Scripts hold at most one link compact state: two compact states that disagree about a target can
 * leave different link messages depending on which arrived first (docs/hub.md explains the corner).
 * Their loans lend one to three units, never none: a loan of no units is deleted as it merges, so an
 * older loan arriving after it finds nothing to lose to (the successor bounds that by refusing loans
 * dated over 10 minutes back; docs/reference/storage-lending.md §2). The lender rents enough units
 * that no order of the loans runs it short.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import type { Hub } from "../../src/hub/index.js";
import type { HubTables } from "../../src/hub/data/tables.js";
import type { HubError } from "../../src/protocol/errors.js";
import { openDatabase, type Database } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import {
  castBody,
  core,
  encode,
  newAccount,
  options,
  protocolNow,
  startStack,
  unwrap,
  type Account,
  type Stack,
} from "./support.js";

type Op =
  | { kind: "cast"; ts: number; text: string }
  | { kind: "castRemove"; ts: number; target: number }
  | { kind: "reaction"; ts: number; add: boolean; type: 1 | 2; url: number }
  | { kind: "link"; ts: number; add: boolean; target: number }
  | { kind: "compact"; ts: number; targets: number[] }
  | { kind: "userData"; ts: number; type: 2 | 3; value: string }
  | { kind: "lend"; ts: number; target: number; units: number };

const ts = fc.integer({ min: 0, max: 4 });
const linkTarget = fc.integer({ min: 1, max: 3 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("cast" as const), ts, text: fc.constantFrom("a", "b") }),
  fc.record({ kind: fc.constant("castRemove" as const), ts, target: fc.nat() }),
  fc.record({
    kind: fc.constant("reaction" as const),
    ts,
    add: fc.boolean(),
    type: fc.constantFrom(1 as const, 2 as const),
    url: fc.integer({ min: 0, max: 1 }),
  }),
  fc.record({ kind: fc.constant("link" as const), ts, add: fc.boolean(), target: linkTarget }),
  fc.record({
    kind: fc.constant("compact" as const),
    ts,
    targets: fc.uniqueArray(linkTarget, { maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant("userData" as const),
    ts,
    type: fc.constantFrom(2 as const, 3 as const),
    value: fc.constantFrom("x", "y"),
  }),
  fc.record({
    kind: fc.constant("lend" as const),
    ts,
    target: fc.integer({ min: 1, max: 2 }),
    units: fc.integer({ min: 1, max: 3 }),
  }),
);

const LINK_TARGETS = 900_000;
const BORROWERS = 800_000;
/** Two loans of at most 3 units stand at once: 6 lent, and a third loan of 3 still leaves one spare. */
const LENDER_UNITS = 10;
const REFUSALS = new Set(["bad_request.duplicate", "bad_request.conflict", "bad_request.prunable"]);

/** Signs the script for `account`; cast removes point at the script's casts. Returns the messages in script order. */
async function materialise(script: Op[], account: Account, base: number): Promise<core.Message[]> {
  const messages: core.Message[] = [];
  const casts: core.Message[] = [];
  for (const op of script) {
    const at = options(account, base + op.ts);
    let message: core.Message;
    switch (op.kind) {
      case "cast":
        message = unwrap(await core.makeCastAdd(castBody(op.text), at, account.signer));
        casts.push(message);
        break;
      case "castRemove": {
        const target =
          casts.length === 0
            ? new Uint8Array(20).fill(op.target % 256)
            : casts[op.target % casts.length]!.hash;
        message = unwrap(await core.makeCastRemove({ targetHash: target }, at, account.signer));
        break;
      }
      case "reaction": {
        const body = { type: op.type, targetUrl: `https://example.com/${op.url}` };
        message = op.add
          ? unwrap(await core.makeReactionAdd(body, at, account.signer))
          : unwrap(await core.makeReactionRemove(body, at, account.signer));
        break;
      }
      case "link": {
        const body = { type: "follow", targetFid: LINK_TARGETS + op.target };
        message = op.add
          ? unwrap(await core.makeLinkAdd(body, at, account.signer))
          : unwrap(await core.makeLinkRemove(body, at, account.signer));
        break;
      }
      case "compact":
        message = unwrap(
          await core.makeLinkCompactState(
            { type: "follow", targetFids: op.targets.map((t) => LINK_TARGETS + t) },
            at,
            account.signer,
          ),
        );
        break;
      case "userData":
        message = unwrap(await core.makeUserDataAdd({ type: op.type, value: op.value }, at, account.signer));
        break;
      case "lend": {
        const body = { toFid: BORROWERS + op.target, numUnits: op.units, unitType: 1 };
        message = unwrap(await core.makeLendStorage(body, at, account.signer));
        break;
      }
    }
    messages.push(message);
  }
  return messages;
}

for (const engine of await testEngines()) {
  describe(`CRDT merges on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let other: Hub;
    let dropOther: () => Promise<void>;
    let inspect: Database<HubTables>;
    let otherDb: Database<HubTables>;
    before(async () => {
      stack = await startStack(engine);
      const created = await engine.create();
      dropOther = created.drop;
      other = await stack.startHub({ database: created.config });
      inspect = openDatabase<HubTables>(stack.config);
      otherDb = openDatabase<HubTables>(created.config);
    });
    after(async () => {
      await inspect?.close();
      await otherDb?.close();
      await stack?.close();
      await dropOther?.();
    });

    /** Script positions of the messages the fid holds, sorted. */
    /** Hashes of the messages the fid holds, sorted. */
    async function finalState(database: Database<HubTables>, account: Account): Promise<string[]> {
      const rows = await database.db
        .selectFrom("hub_messages")
        .select("hash")
        .where("fid", "=", account.fid)
        .execute();
      return rows.map((row) => Buffer.from(row.hash).toString("hex")).sort();
    }

    async function submitAll(hub: Hub, messages: core.Message[], order: number[]): Promise<void> {
      for (const i of order) {
        await hub.service.submitMessage(encode(messages[i]!)).catch((error: HubError) => {
          // Refusals are part of the game; anything else is a bug.
          if (!REFUSALS.has(error.errCode)) throw error;
        });
      }
    }

    it("ends in the same state whatever order the same messages arrive in", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc
            .array(opArb, { minLength: 1, maxLength: 14 })
            .filter((script) => script.filter((op) => op.kind === "compact").length <= 1),
          fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })),
          async (script, randomness) => {
            const account = await newAccount(stack, LENDER_UNITS);
            await other.service.syncChain();
            const messages = await materialise(script, account, protocolNow() - 100);
            // Permutations from the generated randomness, so that fast-check can replay and shrink them.
            const keys = [...randomness.take(script.length * 2)];
            const permutation = (offset: number) =>
              script.map((_, i) => i).sort((a, b) => keys[offset + a]! - keys[offset + b]! || a - b);
            await submitAll(stack.hub, messages, permutation(0));
            await submitAll(other, messages, permutation(script.length));
            assert.deepEqual(await finalState(otherDb, account), await finalState(inspect, account));
          },
        ),
        { numRuns: Number(process.env.CRDT_RUNS ?? 12) },
      );
    });
  });
}
