/**
 * Attacks on the hub's message pipeline, over HTTP against a real hub: content nobody signed in the
 * event log, oversized and padded messages, and name-service proofs taking another fid's name.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import type { HubTables } from "../../src/hub/data/tables.js";
import { usernameProofTypedData } from "../../src/protocol/eip712/usernameProof.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { openDatabase, type Database } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import {
  castAdd,
  castBody,
  core,
  encode,
  get,
  hex,
  newAccount,
  options,
  post,
  startStack,
  unwrap,
  verificationAdd,
  type Account,
  type Json,
  type Stack,
} from "../hub/support.js";

/** The message's bytes followed by an unknown field 99 of `size` zero bytes. */
function padded(bytes: Uint8Array, size: number): Uint8Array {
  const padding = new BinaryWriter()
    .uint32((99 << 3) | 2)
    .bytes(new Uint8Array(size))
    .finish();
  return Buffer.concat([bytes, padding]);
}

function bulk(messages: Uint8Array[]): Uint8Array {
  const writer = new BinaryWriter();
  for (const message of messages) writer.uint32(10).bytes(message);
  return writer.finish();
}

async function eventOf(stack: Stack, hash: Uint8Array): Promise<Json> {
  const events = (await get(stack, "/v1/events?from_event_id=0")).body.events as Json[];
  return events.find(
    (e) =>
      e.mergeMessageBody?.message.hash === hex(hash) ||
      e.mergeUsernameProofBody?.usernameProofMessage?.hash === hex(hash),
  );
}

/** A USERNAME_PROOF message for a name-service name, its proof signed by `owner`'s key. */
async function ensProof(account: Account, name: string, owner = account.custody, fid = account.fid) {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = await owner.signTypedData(
    usernameProofTypedData(NEUTRAL, { name, timestamp, owner: owner.address }),
  );
  const body = {
    timestamp,
    name: new TextEncoder().encode(name),
    owner: core.hexStringToBytes(owner.address)._unsafeUnwrap(),
    signature: core.hexStringToBytes(signature)._unsafeUnwrap(),
    fid,
    type: 2,
  };
  const at = options(account, timestamp - 1609459200);
  return unwrap(await core.makeUsernameProof(body, at, account.signer));
}

for (const engine of await testEngines()) {
  describe(`hub message pipeline attacks on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    let bob: Account;
    let db: Database<HubTables>;
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
      bob = await newAccount(stack);
      db = openDatabase<HubTables>(stack.config);
    });
    after(async () => {
      await db?.close();
      await stack?.close();
    });

    async function storedBytes(hash: Uint8Array): Promise<Buffer> {
      const row = await db.db
        .selectFrom("hub_messages")
        .select("message")
        .where("hash", "=", hash)
        .executeTakeFirstOrThrow();
      return Buffer.from(row.message);
    }

    it("serves only the signed data: a different `data` beside data_bytes reaches no read nor event", async () => {
      const signed = await castAdd(alice, "what alice signed");
      const lie = core.MessageData.create({
        ...signed.data,
        fid: bob.fid,
        castAddBody: castBody("unsigned"),
      });
      const submitted = await post(stack, "/v1/submitMessage", encode({ ...signed, data: lie }));
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
      assert.deepEqual((submitted.body.data as Json).castAddBody.text, "what alice signed");
      assert.equal((submitted.body.data as Json).fid, alice.fid);

      const event = await servedAlike(signed.hash, submitted.body);
      const byId = (await get(stack, `/v1/eventById?event_id=${event.id}`)).body;
      assert.deepEqual(byId.mergeMessageBody.message, submitted.body);
      // Stored without the `data` that differed from the signed bytes.
      assert.deepEqual(await storedBytes(signed.hash), Buffer.from(encode({ ...signed, data: undefined })));
    });

    /** castsByFid and the event log serve exactly the JSON the submit answered; returns the event. */
    async function servedAlike(hash: Uint8Array, json: Json): Promise<Json> {
      const listed = (await get(stack, `/v1/castsByFid?fid=${alice.fid}`)).body.messages as Json[];
      assert.deepEqual(
        listed.find((m) => m.hash === hex(hash)),
        json,
      );
      const event = await eventOf(stack, hash);
      assert.deepEqual(event.mergeMessageBody.message, json);
      return event;
    }

    it("keeps a data-only message working: the hash is over the encoding of `data`", async () => {
      const signed = await castAdd(alice, "data only");
      const submitted = await post(stack, "/v1/submitMessage", encode({ ...signed, dataBytes: undefined }));
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
      assert.equal((submitted.body.data as Json).castAddBody.text, "data only");
      assert.equal(submitted.body.dataBytes, undefined);
      await servedAlike(signed.hash, submitted.body);
    });

    it("stores a message padded with unknown fields without them", async () => {
      const signed = await castAdd(alice, "padded");
      const submitted = await post(stack, "/v1/submitMessage", padded(encode(signed), 60_000));
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
      assert.deepEqual(await storedBytes(signed.hash), Buffer.from(encode(signed)));
      const largest = await db.db
        .selectFrom("hub_events")
        .select((eb) => eb.fn.max(eb.fn("length", ["event"])).as("size"))
        .executeTakeFirstOrThrow();
      assert.ok(Number(largest.size) < 2_000, `an event of ${String(largest.size)} bytes`);
    });

    it("refuses a 7.5 MB message inside a bulk and stores nothing of it", async () => {
      const small = await castAdd(alice, "small");
      const huge = await castAdd(alice, "huge");
      const hugeBytes = padded(encode(huge), 7_500_000);
      const response = await post(stack, "/v1/submitBulkMessages", bulk([encode(small), hugeBytes]));
      assert.equal(response.status, 200);
      const entries = response.body.messages as Json[];
      assert.equal(entries[0].hash, hex(small.hash));
      assert.deepEqual(entries[1], {
        hash: hex(huge.hash),
        errCode: "bad_request.validation_failure",
        message: `the message is ${hugeBytes.length} bytes; a message may be at most 81920 bytes`,
      });
      const cast = await get(stack, `/v1/castById?fid=${alice.fid}&hash=${hex(huge.hash)}`);
      assert.equal(cast.status, 404);
    });

    it("refuses a name-service proof that its owner did not sign", async () => {
      const proof = await ensProof(bob, "unsigned.eth");
      const forged = unwrap(
        await core.makeUsernameProof(
          { ...proof.data.usernameProofBody!, signature: new Uint8Array(65) },
          options(bob, proof.data.timestamp),
          bob.signer,
        ),
      );
      const refused = await post(stack, "/v1/submitMessage", encode(forged));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errCode, "bad_request.validation_failure");
      assert.equal(
        refused.body.details,
        "invalid username proof signature: it does not recover to the proof's owner",
      );
    });

    it("keeps a name-service name with its fid unless the same owner moves it", async () => {
      const held = await post(stack, "/v1/submitMessage", encode(await ensProof(alice, "alice.eth")));
      assert.equal(held.status, 200, JSON.stringify(held.body));

      // Bob signs a proof of his own for alice's name: a valid signature, another owner.
      const takeover = await post(stack, "/v1/submitMessage", encode(await ensProof(bob, "alice.eth")));
      assert.equal(takeover.status, 400);
      assert.equal(takeover.body.errCode, "bad_request.conflict");
      assert.equal(
        takeover.body.details,
        `name alice.eth is held by fid ${alice.fid}; castnet cannot resolve name-service names, so a proof by another owner cannot take it over`,
      );
      assert.equal((await get(stack, "/v1/userNameProofByName?name=alice.eth")).body.fid, alice.fid);
      const bobs = (await get(stack, `/v1/userNameProofsByFid?fid=${bob.fid}`)).body.proofs as Json[];
      assert.deepEqual(
        bobs.map((p) => p.name),
        [],
      );

      // The owner (alice's custody key) verified by carol moves the name to carol.
      const carol = await newAccount(stack);
      const verified = await verificationAdd(carol, alice.custody);
      assert.equal((await post(stack, "/v1/submitMessage", encode(verified.message))).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const moved = await post(
        stack,
        "/v1/submitMessage",
        encode(await ensProof(carol, "alice.eth", alice.custody)),
      );
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal((await get(stack, "/v1/userNameProofByName?name=alice.eth")).body.fid, carol.fid);
      const alices = (await get(stack, `/v1/userNameProofsByFid?fid=${alice.fid}`)).body.proofs as Json[];
      assert.deepEqual(alices, []);
    });
  });
}
