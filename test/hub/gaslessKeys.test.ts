/**
 * Gasless keys (docs/reference/gasless-signers.md) built by the unchanged reference client library
 * (@farcaster/core 0.20, @farcaster/hub-nodejs 0.17): KEY_ADD and KEY_REMOVE over HTTP and gRPC,
 * a key's scopes, lifetime and nonces, and castnet's own builder byte for byte against the library's.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { ed25519PublicKey } from "../../src/protocol/ed25519.js";
import { encodeMessage, signMessageData } from "../../src/protocol/message.js";
import { keyAddTypedData } from "../../src/protocol/eip712/gaslessKey.js";
import { toHex } from "../../src/protocol/hex.js";
import { buildKeyAddBody, buildKeyRemoveBody } from "../../src/protocol/gaslessKeyBodies.js";
import { REFERENCE } from "../../src/protocol/naming.js";
import { ADMISSIBLE_KEY_SCOPES } from "../../src/protocol/validation/index.js";
import { testEngines } from "../support/databases.js";
import { connect, ok, refused, type GrpcClient } from "./grpc/support.js";
import {
  castAdd,
  core,
  allEvents,
  DEVNET,
  get,
  post,
  hex,
  mergeEventOf,
  newAccount,
  newSigner,
  options,
  protocolNow,
  submit,
  unwrap,
  type Account,
  type Json,
  type Stack,
  startStack,
} from "./support.js";

const { MessageType } = core;

interface KeyAddRequest {
  scopes?: core.MessageType[];
  ttl?: number;
  nonce: number;
  /** Another fid's app requesting the key, signed by that fid's custody. */
  app?: Account;
  /** Signs the custody authorisation instead of the fid's custody. */
  custodySigner?: core.Eip712Signer;
  timestamp?: number;
  deadline?: number;
}

/** A KEY_ADD built exactly as an app following the successor's guide builds it. */
async function keyAdd(account: Account, request: KeyAddRequest) {
  const { signer, key } = await newSigner();
  const custody = request.custodySigner ?? new core.ViemLocalEip712Signer(account.custody);
  const appSigner = new core.ViemLocalEip712Signer((request.app ?? account).custody);
  const body = unwrap(
    await core.makeKeyAddBody(
      {
        fid: BigInt(account.fid),
        key: Buffer.from(key.slice(2), "hex"),
        scopes: request.scopes ?? [MessageType.CAST_ADD],
        ttl: request.ttl ?? 86_400,
        nonce: request.nonce,
        deadline: request.deadline ?? protocolNow() + 3600,
        requestFid: request.app === undefined ? undefined : BigInt(request.app.fid),
      },
      custody,
      appSigner,
    ),
  );
  const message = unwrap(await core.makeKeyAdd(body, options(account, request.timestamp), signer));
  return { message, signer, key, body };
}

function castBy(account: Account, signer: core.Signer, text: string) {
  return core.makeCastAdd(
    { text, embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 },
    options(account),
    signer,
  );
}

it("admits the scopes the reference library admits", () => {
  assert.deepEqual(
    [...ADMISSIBLE_KEY_SCOPES].sort((a, b) => a - b),
    [...core.ADMISSIBLE_KEY_ADD_SCOPES].sort((a, b) => a - b),
  );
});

it("castnet's builder writes the reference library's KEY_ADD and KEY_REMOVE bodies byte for byte", async () => {
  const custody = privateKeyToAccount(generatePrivateKey());
  const app = privateKeyToAccount(generatePrivateKey());
  const key = crypto.getRandomValues(new Uint8Array(32));
  const deadline = protocolNow() + 3600;
  const fields = { scopes: [MessageType.CAST_ADD, MessageType.REACTION_ADD], ttl: 3600, nonce: 7, deadline };
  const theirs = unwrap(
    await core.makeKeyAddBody(
      { fid: 42n, key, requestFid: 9n, ...fields },
      new core.ViemLocalEip712Signer(custody),
      new core.ViemLocalEip712Signer(app),
    ),
  );
  const ours = await buildKeyAddBody({ fid: 42, key, requestFid: 9, ...fields }, custody, REFERENCE, app);
  assert.equal(hex(core.KeyAddBody.encode(ours).finish()), hex(core.KeyAddBody.encode(theirs).finish()));
  const removeTheirs = unwrap(
    await core.makeKeyRemoveBody(
      { fid: 42n, key, nonce: 8, deadline },
      new core.ViemLocalEip712Signer(custody),
    ),
  );
  const removeOurs = await buildKeyRemoveBody({ fid: 42, key, nonce: 8, deadline }, custody, REFERENCE);
  assert.equal(
    hex(core.KeyRemoveBody.encode(removeOurs).finish()),
    hex(core.KeyRemoveBody.encode(removeTheirs).finish()),
  );
});

for (const engine of await testEngines()) {
  describe(`gasless keys on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let grpc: GrpcClient;
    before(async () => {
      stack = await startStack(engine);
      grpc = await connect(stack.hub);
    });
    after(async () => {
      grpc?.close();
      await stack?.close();
    });

    it("adds a key by message; it signs casts within its scopes, and the merge event carries the KEY_ADD", async () => {
      const alice = await newAccount(stack);
      const added = await keyAdd(alice, { nonce: 1 });
      const answer = await submit(stack, added.message);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.data.type, "MESSAGE_TYPE_KEY_ADD");
      assert.equal(answer.body.data.keyAddBody.key, added.key);
      assert.deepEqual(answer.body.data.keyAddBody.scopes, [MessageType.CAST_ADD]);
      const event = await mergeEventOf(stack, added.message);
      assert.deepEqual(event.mergeMessageBody.deletedMessages, []);

      const cast = unwrap(await castBy(alice, added.signer, "signed without gas"));
      assert.equal((await submit(stack, cast)).status, 200);
      const like = unwrap(
        await core.makeReactionAdd(
          { type: 1, targetCastId: { fid: alice.fid, hash: cast.hash } },
          options(alice),
          added.signer,
        ),
      );
      const outside = await submit(stack, like);
      assert.equal(outside.status, 400);
      assert.equal(outside.body.errCode, "bad_request.validation_failure");
      assert.equal(outside.body.details, "message type 3 is not in the scope of the gasless signer");
    });

    it("takes a KEY_ADD and a cast over gRPC with the unchanged hub client", async () => {
      const bob = await newAccount(stack);
      const added = await keyAdd(bob, { nonce: 5, scopes: [MessageType.CAST_ADD, MessageType.REACTION_ADD] });
      const merged = ok(await grpc.client.submitMessage(added.message));
      assert.equal(hex(merged.hash), hex(added.message.hash));
      ok(await grpc.client.submitMessage(unwrap(await castBy(bob, added.signer, "over gRPC"))));
      const again = await keyAdd(bob, { nonce: 5 });
      const reused = refused(await grpc.client.submitMessage(again.message));
      assert.equal(reused.errCode, "bad_request.conflict");
      assert.equal(reused.message, "gasless-key nonce 5 is not greater than stored nonce 5");
    });

    it("refuses a custody signature by another address, and a request signed by someone not the app's custody", async () => {
      const carol = await newAccount(stack);
      const mallory = new core.ViemLocalEip712Signer(privateKeyToAccount(generatePrivateKey()));
      const forged = await submit(stack, (await keyAdd(carol, { nonce: 1, custodySigner: mallory })).message);
      assert.equal(forged.status, 400);
      assert.equal(forged.body.details, "invalid signature");

      const app = await newAccount(stack);
      const spoofed = await keyAdd(carol, {
        nonce: 1,
        app: { ...app, custody: privateKeyToAccount(generatePrivateKey()) },
      });
      const answer = await submit(stack, spoofed.message);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.details, "requestSigner does not match custody address of requestFid");

      // The custody's own signature, over another chain's domain.
      const honest = await keyAdd(carol, { nonce: 1 });
      const typedData = keyAddTypedData(REFERENCE, {
        fid: carol.fid,
        key: toHex(honest.body.key),
        keyType: 1,
        scopes: honest.body.scopes,
        ttl: honest.body.ttl,
        nonce: 1,
        deadline: honest.body.deadline,
      });
      const otherChain = await carol.custody.signTypedData({
        ...typedData,
        domain: { ...typedData.domain, chainId: 10 },
      });
      const moved = core.KeyAddBody.create({
        ...honest.body,
        custodySignature: Buffer.from(otherChain.slice(2), "hex"),
      });
      const wrongChain = await submit(
        stack,
        unwrap(await core.makeKeyAdd(moved, options(carol), honest.signer)),
      );
      assert.equal(wrongChain.body.details, "invalid signature");

      const requested = await keyAdd(carol, { nonce: 2, app });
      assert.equal((await submit(stack, requested.message)).status, 200);
    });

    it("refuses a cast by a key whose lifetime ran out", async () => {
      const dave = await newAccount(stack);
      const added = await keyAdd(dave, { nonce: 1, ttl: 60, timestamp: protocolNow() - 120 });
      assert.equal((await submit(stack, added.message)).status, 200);
      const answer = await submit(stack, unwrap(await castBy(dave, added.signer, "too late")));
      assert.equal(answer.status, 400);
      assert.match(
        answer.body.details,
        /^gasless-key last_used_at expired: stored=\d+ \+ ttl=60 < current_block_timestamp=\d+$/,
      );
    });

    it("removes a key by custody and by itself; removed keys sign nothing more", async () => {
      const erin = await newAccount(stack);
      const app = await newAccount(stack);
      const first = await keyAdd(erin, { nonce: 1, app });
      const second = await keyAdd(erin, { nonce: 2, app });
      for (const added of [first, second]) assert.equal((await submit(stack, added.message)).status, 200);
      const signed = unwrap(await castBy(erin, first.signer, "revoked with its key"));
      assert.equal((await submit(stack, signed)).status, 200);

      const byCustody = unwrap(
        await core.makeKeyRemoveBody(
          { fid: BigInt(erin.fid), key: first.body.key, nonce: 3, deadline: protocolNow() + 600 },
          new core.ViemLocalEip712Signer(erin.custody),
        ),
      );
      const removal = unwrap(await core.makeKeyRemove(byCustody, options(erin), erin.signer));
      assert.equal((await submit(stack, removal)).status, 200);
      const revoked = (await allEvents(stack)).find(
        (e) =>
          e.type === "HUB_EVENT_TYPE_REVOKE_MESSAGE" && e.revokeMessageBody.message.hash === hex(signed.hash),
      );
      assert.ok(revoked, "the removed key's cast is revoked");
      assert.equal((await get(stack, `/v1/castById?fid=${erin.fid}&hash=${hex(signed.hash)}`)).status, 404);
      const event = await mergeEventOf(stack, removal);
      assert.equal(event.mergeMessageBody.deletedMessages[0].hash, hex(first.message.hash));
      const after = await submit(stack, unwrap(await castBy(erin, first.signer, "gone")));
      assert.equal(after.body.errCode, "bad_request.unknown_signer");

      const selfRevoke = unwrap(
        core.makeKeyRemoveBodySelfRevoke({ key: second.body.key, nonce: 1, deadline: protocolNow() + 600 }),
      );
      assert.equal(
        (await submit(stack, unwrap(await core.makeKeyRemove(selfRevoke, options(erin), second.signer))))
          .status,
        200,
      );
      const replay = unwrap(
        core.makeKeyRemoveBodySelfRevoke({ key: second.body.key, nonce: 1, deadline: protocolNow() + 600 }),
      );
      const again = await submit(
        stack,
        unwrap(await core.makeKeyRemove(replay, options(erin), second.signer)),
      );
      assert.equal(again.body.details, "key is not registered for this fid");

      // Another key may not revoke this one by pretending to be it.
      const third = await keyAdd(erin, { nonce: 4, app });
      assert.equal((await submit(stack, third.message)).status, 200);
      const impostor = unwrap(
        core.makeKeyRemoveBodySelfRevoke({ key: third.body.key, nonce: 2, deadline: protocolNow() + 600 }),
      );
      const refusedRemove = await submit(
        stack,
        unwrap(await core.makeKeyRemove(impostor, options(erin), erin.signer)),
      );
      assert.equal(refusedRemove.body.details, "invalid signature");
    });

    it("refuses a key already on chain, a key held by another fid, and scopes it may not grant", async () => {
      const frank = await newAccount(stack);
      const grace = await newAccount(stack);
      const added = await keyAdd(frank, { nonce: 1 });
      assert.equal((await submit(stack, added.message)).status, 200);
      // The same key requested for another fid.
      const body = unwrap(
        await core.makeKeyAddBody(
          {
            fid: BigInt(grace.fid),
            key: added.body.key,
            scopes: [MessageType.CAST_ADD],
            ttl: 600,
            nonce: 1,
            deadline: protocolNow() + 600,
          },
          new core.ViemLocalEip712Signer(grace.custody),
        ),
      );
      const claimed = await submit(stack, unwrap(await core.makeKeyAdd(body, options(grace), added.signer)));
      assert.equal(claimed.body.details, "key is already claimed by a different fid");

      const onChain = unwrap(
        await core.makeKeyAddBody(
          {
            fid: BigInt(grace.fid),
            key: Buffer.from(grace.signerKey.slice(2), "hex"),
            scopes: [MessageType.CAST_ADD],
            ttl: 600,
            nonce: 2,
            deadline: protocolNow() + 600,
          },
          new core.ViemLocalEip712Signer(grace.custody),
        ),
      );
      const both = await submit(stack, unwrap(await core.makeKeyAdd(onChain, options(grace), grace.signer)));
      assert.equal(both.body.details, "key is already registered onchain for this fid");

      // The library refuses to build it, so it is signed by hand.
      const keyPair = crypto.getRandomValues(new Uint8Array(32));
      const wide = { ...added.body, key: ed25519PublicKey(keyPair), scopes: [MessageType.KEY_ADD] };
      const data = {
        type: MessageType.KEY_ADD,
        fid: grace.fid,
        timestamp: protocolNow(),
        network: DEVNET,
        keyAddBody: wide,
      };
      const escalation = await post(
        stack,
        "/v1/submitMessage",
        encodeMessage(signMessageData(data, keyPair)),
      );
      assert.equal(escalation.body.details, 'scope "16" is not a valid MessageType');
    });

    it("lists a fid's keys of both kinds over HTTP and gRPC, with the nonces the next messages must exceed", async () => {
      const ivan = await newAccount(stack);
      const app = await newAccount(stack);
      const timestamp = protocolNow();
      const added = await keyAdd(ivan, {
        nonce: 3,
        app,
        ttl: 7200,
        timestamp,
        scopes: [MessageType.REACTION_ADD, MessageType.CAST_ADD],
      });
      assert.equal((await submit(stack, added.message)).status, 200);

      const list = await get(
        stack,
        `/v1/signersByFid?fid=${ivan.fid}&requesterFids=${app.fid}&requesterFids=999`,
      );
      assert.equal(list.status, 200);
      const [onChain, byMessage] = list.body.signers;
      assert.equal(list.body.signers.length, 2);
      assert.equal(onChain.source, "SIGNER_SOURCE_ONCHAIN");
      assert.equal(onChain.key, ivan.signerKey);
      assert.equal(onChain.onChainEvent.signerEventBody.key, ivan.signerKey);
      assert.equal(onChain.scopes, undefined);
      const unix = timestamp + 1_609_459_200;
      assert.deepEqual(byMessage, {
        source: "SIGNER_SOURCE_OFFCHAIN",
        key: added.key,
        keyType: 1,
        fid: ivan.fid,
        addedAt: unix,
        lastUsedAt: unix,
        ttl: 7200,
        expiresAt: unix + 7200,
        scopes: ["MESSAGE_TYPE_CAST_ADD", "MESSAGE_TYPE_REACTION_ADD"],
        requestFid: app.fid,
        nonce: 3,
      });
      assert.equal(list.body.gaslessSignerCount, 1);
      assert.equal(list.body.gaslessSignerLimit, 1000);
      assert.equal(list.body.currentUserNonce, 3);
      assert.deepEqual(list.body.requesterFidNonces, { [app.fid]: 0, 999: 0 });
      assert.equal(list.body.nextPageToken, undefined);

      const first = await get(stack, `/v1/signersByFid?fid=${ivan.fid}&pageSize=1`);
      assert.deepEqual(first.body.signers, [onChain]);
      const second = await get(
        stack,
        `/v1/signersByFid?fid=${ivan.fid}&pageSize=1&pageToken=${encodeURIComponent(first.body.nextPageToken)}`,
      );
      assert.deepEqual(second.body.signers, [byMessage]);
      assert.equal(second.body.nextPageToken, undefined);
      const bad = await get(stack, `/v1/signersByFid?fid=${ivan.fid}&pageToken=AAAA`);
      assert.equal(bad.status, 400);

      const one = await get(stack, `/v1/signer?fid=${ivan.fid}&signer=${added.key}`);
      assert.deepEqual(one.body, { signer: byMessage });
      const none = await get(stack, `/v1/signer?fid=${app.fid}&signer=${added.key}`);
      assert.equal(none.status, 404);

      const answer = ok(await grpc.client.getSignersByFid({ fid: ivan.fid, requesterFids: [app.fid] }));
      assert.deepEqual(
        answer.signers.map((signer) => [signer.source, hex(signer.key)]),
        [
          [core.SignerSource.ONCHAIN, ivan.signerKey],
          [core.SignerSource.OFFCHAIN, added.key],
        ],
      );
      assert.deepEqual(answer.signers[1]!.scopes, [MessageType.CAST_ADD, MessageType.REACTION_ADD]);
      assert.equal(answer.signers[1]!.expiresAt, unix + 7200);
      assert.equal(answer.currentUserNonce, 3);
      assert.deepEqual(answer.requesterFidNonces, { [app.fid]: 0 });
      const single = ok(await grpc.client.getSigner({ fid: ivan.fid, signer: added.body.key }));
      assert.equal(single.signer?.requestFid, app.fid);
      assert.equal(ok(await grpc.client.getOnChainSignersByFid({ fid: ivan.fid })).events.length, 1);
    });

    it("agrees with a model of keys, nonces and revocation over random runs of adds, removes and casts", async () => {
      type Op = { kind: "add" | "remove"; key: number; nonce: number } | { kind: "cast"; key: number };
      const op: fc.Arbitrary<Op> = fc.oneof(
        fc.record({
          kind: fc.constantFrom("add" as const, "remove" as const),
          key: fc.nat(2),
          nonce: fc.integer({ min: 1, max: 6 }),
        }),
        fc.record({ kind: fc.constant("cast" as const), key: fc.nat(2) }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
          const account = await newAccount(stack);
          const keys = await Promise.all([0, 1, 2].map(() => newSigner()));
          const model = { nonce: 0, active: new Set<number>(), casts: new Map<number, number>() };
          for (const [i, step] of ops.entries()) {
            const { signer, key } = keys[step.key]!;
            const keyBytes = Buffer.from(key.slice(2), "hex");
            if (step.kind === "cast") {
              const answer = await submit(stack, unwrap(await castBy(account, signer, `cast ${i}`)));
              if (model.active.has(step.key)) {
                assert.equal(answer.status, 200, JSON.stringify(answer.body));
                model.casts.set(step.key, (model.casts.get(step.key) ?? 0) + 1);
              } else assert.equal(answer.body.errCode, "bad_request.unknown_signer");
              continue;
            }
            const custody = new core.ViemLocalEip712Signer(account.custody);
            const deadline = protocolNow() + 600;
            const message =
              step.kind === "add"
                ? unwrap(
                    await core.makeKeyAdd(
                      unwrap(
                        await core.makeKeyAddBody(
                          {
                            fid: BigInt(account.fid),
                            key: keyBytes,
                            scopes: [MessageType.CAST_ADD],
                            ttl: 600,
                            nonce: step.nonce,
                            deadline,
                          },
                          custody,
                        ),
                      ),
                      options(account),
                      signer,
                    ),
                  )
                : unwrap(
                    await core.makeKeyRemove(
                      unwrap(
                        await core.makeKeyRemoveBody(
                          { fid: BigInt(account.fid), key: keyBytes, nonce: step.nonce, deadline },
                          custody,
                        ),
                      ),
                      options(account),
                      account.signer,
                    ),
                  );
            const answer = await submit(stack, message);
            if (step.kind === "remove" && !model.active.has(step.key)) {
              assert.equal(answer.body.details, "key is not registered for this fid");
            } else if (step.nonce <= model.nonce) {
              assert.equal(answer.body.errCode, "bad_request.conflict");
            } else {
              assert.equal(answer.status, 200, JSON.stringify(answer.body));
              model.nonce = step.nonce;
              if (step.kind === "add") model.active.add(step.key);
              else {
                model.active.delete(step.key);
                model.casts.delete(step.key);
              }
            }
          }
          const listed = await get(stack, `/v1/signersByFid?fid=${account.fid}`);
          assert.equal(listed.body.currentUserNonce, model.nonce);
          assert.deepEqual(
            listed.body.signers
              .filter((s: Json) => s.source === "SIGNER_SOURCE_OFFCHAIN")
              .map((s: Json) => s.key)
              .sort(),
            [...model.active].map((k) => keys[k]!.key).sort(),
          );
          const stored = (await get(stack, `/v1/castsByFid?fid=${account.fid}`)).body.messages.length;
          assert.equal(
            stored,
            [...model.casts.values()].reduce((a, b) => a + b, 0),
          );
        }),
        { numRuns: 12 },
      );
    });

    it("keeps accepting casts from on-chain keys beside keys added by message", async () => {
      const heidi = await newAccount(stack);
      assert.equal((await submit(stack, await castAdd(heidi, "on chain"))).status, 200);
    });
  });
}
