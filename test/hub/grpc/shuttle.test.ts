/**
 * The reference indexer, @farcaster/shuttle, unchanged against the hub's gRPC API: it backfills two
 * fids (its MessageReconciliation, over the GetAll…MessagesByFid reads) into its messages table in
 * a fresh PostgreSQL database, then follows the hub's Subscribe stream from there on, and
 * the rows and its handler's calls are checked exactly. Shuttle's app queues events in a Redis
 * stream between its subscriber and its processor; here the subscriber hands them to the processor
 * itself, which leaves what the hub sees and answers the same. PostgreSQL only: shuttle's schema
 * is PostgreSQL's.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  BaseHubSubscriber,
  getDbClient,
  getHubClient,
  HubEventProcessor,
  MessageReconciliation,
  type DB,
  type HubClient,
  type MessageHandler,
} from "@farcaster/shuttle";
import pg from "pg";
import pino from "pino";
import { testEngines } from "../../support/databases.js";
import {
  castAdd,
  core,
  encode,
  hex,
  newAccount,
  options,
  startStack,
  submit,
  unwrap,
  verificationAdd,
  type Account,
  type Stack,
} from "../support.js";

/** Shuttle's logger type is its own pino's, a version apart from castnet's: the same logger to it. */
const logger = pino({ level: "silent" }) as unknown as ConstructorParameters<typeof MessageReconciliation>[2];
const FARCASTER_EPOCH_MS = 1_609_459_200_000;

/** The messages table as shuttle's example app creates it (its columns in snake case, as shuttle's queries name them). */
const SCHEMA = `
  create table messages (
    id uuid primary key default gen_random_uuid(),
    created_at timestamptz not null default current_timestamp,
    updated_at timestamptz not null default current_timestamp,
    timestamp timestamptz not null,
    deleted_at timestamptz,
    pruned_at timestamptz,
    revoked_at timestamptz,
    fid bigint not null,
    type smallint not null,
    hash_scheme smallint not null,
    signature_scheme smallint not null,
    hash bytea not null unique,
    signer bytea not null,
    body json not null,
    raw bytea not null,
    unique (hash, fid, type)
  )`;

/** One call of shuttle's handler: which message, how, and what shuttle made of it. */
type Handled = [hash: string, operation: string, state: string, isNew: boolean, wasMissed: boolean];

class Recorder implements MessageHandler {
  readonly calls: Handled[] = [];

  async handleMessageMerge(
    ...[message, , operation, state, isNew, wasMissed]: Parameters<MessageHandler["handleMessageMerge"]>
  ) {
    this.calls.push([hex(message.hash), operation, state, isNew, wasMissed]);
  }
}

/**
 * Shuttle's subscriber with its events processed as they come, in stream order, resuming at `from`
 * as shuttle's app resumes at the last event it processed.
 */
class Follower extends BaseHubSubscriber {
  constructor(
    hub: HubClient,
    private readonly db: DB,
    private readonly handler: MessageHandler,
    private readonly from: number,
  ) {
    super("castnet", hub.client, logger);
  }

  override async getLastEventId(): Promise<number> {
    return this.from;
  }

  #processed = 0;
  #waiting: { count: number; resolve(): void } | undefined;

  override async processHubEvent(
    event: Parameters<BaseHubSubscriber["processHubEvent"]>[0],
  ): Promise<boolean> {
    await HubEventProcessor.processHubEvent(this.db, event, this.handler);
    this.#processed++;
    if (this.#waiting !== undefined && this.#processed >= this.#waiting.count) this.#waiting.resolve();
    return true;
  }

  /** Resolves once `count` events have been processed, their rows committed. */
  processed(count: number): Promise<void> {
    if (this.#processed >= count) return Promise.resolve();
    return new Promise((resolve) => (this.#waiting = { count, resolve }));
  }
}

const at = (message: core.Message) => new Date(FARCASTER_EPOCH_MS + message.data!.timestamp * 1000);

/** A row as the test compares it: the columns shuttle fills from the message, and whether it is deleted. */
function row(message: core.Message, body: unknown, deleted = false) {
  return {
    fid: message.data!.fid,
    type: message.data!.type,
    timestamp: at(message),
    hash_scheme: 1,
    signature_scheme: 1,
    hash: hex(message.hash),
    signer: hex(message.signer),
    raw: hex(encode(message)),
    body,
    deleted,
  };
}

const engine = (await testEngines()).find((candidate) => candidate.engine === "postgres")!;

describe(
  "the reference indexer (@farcaster/shuttle) against the hub's gRPC API",
  { skip: engine.skip },
  () => {
    let stack: Stack;
    let db: DB;
    /** The same database, read apart from shuttle. */
    let target: pg.Client;
    let hub: HubClient;
    let alice: Account;
    let bob: Account;
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
      bob = await newAccount(stack);
      const port = await stack.hub.grpc.listen("127.0.0.1", 0);
      hub = getHubClient(`127.0.0.1:${port}`, { ssl: false });
      const database = await stack.freshDatabase();
      assert.equal(database.engine, "postgres");
      target = new pg.Client({ connectionString: database.url });
      await target.connect();
      await target.query(SCHEMA);
      db = getDbClient(database.url);
    });
    after(async () => {
      hub?.client.close();
      await db?.destroy();
      await target?.end();
      await stack?.close();
    });

    it("backfills the hub's messages, then follows its events into shuttle's table", async () => {
      const cast = await castAdd(alice, "indexed by shuttle");
      const bio = unwrap(
        await core.makeUserDataAdd({ type: 3, value: "from castnet" }, options(alice), alice.signer),
      );
      const castId = { fid: alice.fid, hash: cast.hash };
      const like = unwrap(
        await core.makeReactionAdd({ type: 1, targetCastId: castId }, options(bob), bob.signer),
      );
      const follow = unwrap(
        await core.makeLinkAdd({ type: "follow", targetFid: alice.fid }, options(bob), bob.signer),
      );
      const wallet = await verificationAdd(bob);
      for (const message of [cast, bio, like, follow, wallet.message])
        assert.equal((await submit(stack, message)).status, 200);

      const handler = new Recorder();
      const reconciliation = new MessageReconciliation(hub.client, db, logger);
      for (const fid of [alice.fid, bob.fid]) {
        await reconciliation.reconcileMessagesForFid(
          fid,
          async (message, missingInDb) => {
            if (missingInDb) await HubEventProcessor.handleMissingMessage(db, message, handler);
          },
          async () => undefined,
        );
      }
      // Fid by fid, type by type (casts, reactions, links, verifications, user data).
      const backfilled = [cast, bio, like, follow, wallet.message];
      assert.deepEqual(
        handler.calls,
        backfilled.map((message) => [hex(message.hash), "merge", "created", true, true]),
      );

      // From the event after the backfill's last, so that the stream misses nothing submitted after it.
      const from = (await stack.hub.service.events.lastId()) + 1;
      const follower = new Follower(hub, db, handler, from);
      await follower.start();
      const reply = await castAdd(bob, "and followed", { parentCastId: castId });
      const remove = unwrap(
        await core.makeCastRemove({ targetHash: cast.hash }, options(alice), alice.signer),
      );
      for (const message of [reply, remove]) assert.equal((await submit(stack, message)).status, 200);
      await follower.processed(2);
      follower.destroy();
      assert.deepEqual(handler.calls.slice(backfilled.length), [
        [hex(reply.hash), "merge", "created", true, false],
        [hex(cast.hash), "delete", "deleted", true, false],
        [hex(remove.hash), "merge", "deleted", true, false],
      ]);

      const rows = await target.query(`
      select fid, type, timestamp, hash_scheme, signature_scheme, '0x' || encode(hash, 'hex') as hash,
        '0x' || encode(signer, 'hex') as signer, '0x' || encode(raw, 'hex') as raw, body,
        deleted_at is not null as deleted
      from messages where pruned_at is null and revoked_at is null order by fid, type`);
      const hashOf = (message: core.Message) => hex(message.hash);
      const expected = [
        row(
          cast,
          { embeds: [], mentions: [], mentionsPositions: [], text: "indexed by shuttle", type: 0 },
          true,
        ),
        row(bio, { type: 3, value: "from castnet" }),
        row(remove, { targetHash: hashOf(cast) }),
        row(like, { type: 1, target: { fid: alice.fid, hash: hashOf(cast) } }),
        row(follow, { type: "follow", targetFid: alice.fid }),
        row(wallet.message, {
          address: wallet.wallet.address.toLowerCase(),
          claimSignature: hex(wallet.message.data!.verificationAddAddressBody!.claimSignature),
          blockHash: hex(wallet.message.data!.verificationAddAddressBody!.blockHash),
          protocol: "ethereum",
        }),
        row(reply, {
          embeds: [],
          mentions: [],
          mentionsPositions: [],
          parent: { fid: alice.fid, hash: hashOf(cast) },
          text: "and followed",
          type: 0,
        }),
      ];
      const sorted = expected.sort((a, b) => a.fid - b.fid || a.type - b.type);
      assert.deepEqual(rows.rows, sorted);
    });
  },
);
