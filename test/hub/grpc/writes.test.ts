/**
 * The gRPC writes through the reference client library: every message type submitted, validation,
 * bulk submits, and the same refusals (HubError codes) as the HTTP API, RPC auth included.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { getAuthMetadata } from "@farcaster/hub-nodejs";
import { testEngines } from "../../support/databases.js";
import {
  castAdd,
  castBody,
  core,
  DEVNET,
  encode,
  get,
  newAccount,
  newSigner,
  options,
  post,
  protocolNow,
  registerName,
  signedByHand,
  startStack,
  unwrap,
  verificationAdd,
  type Account,
  type Stack,
} from "../support.js";
import { connect, ok, refused, type GrpcClient } from "./support.js";

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

for (const engine of await testEngines()) {
  describe(`hub gRPC writes on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    let bob: Account;
    let rpc: GrpcClient;
    before(async () => {
      stack = await startStack(engine);
      alice = await newAccount(stack);
      bob = await newAccount(stack);
      rpc = await connect(stack.hub);
    });
    after(async () => {
      rpc?.close();
      await stack?.close();
    });

    it("submits every message type and answers each with the message as stored", async () => {
      const cast = await castAdd(alice, "over gRPC");
      const target = { fid: alice.fid, hash: cast.hash };
      const at = options(bob);
      await registerName(stack, bob, "bobgrpc");
      const wallet = await verificationAdd(bob);
      const messages = [
        cast,
        unwrap(await core.makeReactionAdd({ type: 1, targetCastId: target }, at, bob.signer)),
        unwrap(await core.makeReactionRemove({ type: 1, targetCastId: target }, at, bob.signer)),
        unwrap(await core.makeLinkAdd({ type: "follow", targetFid: alice.fid }, at, bob.signer)),
        unwrap(await core.makeLinkRemove({ type: "follow", targetFid: alice.fid }, at, bob.signer)),
        unwrap(await core.makeLinkCompactState({ type: "follow", targetFids: [alice.fid] }, at, bob.signer)),
        unwrap(await core.makeUserDataAdd({ type: 2, value: "Bob" }, at, bob.signer)),
        unwrap(await core.makeUserDataAdd({ type: 6, value: "bobgrpc" }, at, bob.signer)),
        wallet.message,
        unwrap(await core.makeVerificationRemove({ address: wallet.address, protocol: 0 }, at, bob.signer)),
        unwrap(await core.makeCastRemove({ targetHash: cast.hash }, options(alice), alice.signer)),
      ];
      for (const message of messages) {
        const merged = ok(await rpc.client.submitMessage(message));
        assert.ok(same(merged.hash, message.hash));
        assert.ok(same(core.Message.encode(merged).finish(), encode(message)));
      }
      // Stored exactly as over HTTP: the HTTP API lists what gRPC submitted.
      const links = (await get(stack, `/v1/linksByFid?fid=${bob.fid}`)).body;
      assert.equal(links.messages.length, 0);
      const names = (await get(stack, `/v1/userDataByFid?fid=${bob.fid}`)).body.messages;
      assert.equal(names.length, 2);
    });

    it("validates without storing, frame actions too", async () => {
      const frame = unwrap(
        await core.makeFrameAction(
          {
            url: new TextEncoder().encode("https://example.com/frame"),
            buttonIndex: 1,
            castId: { fid: bob.fid, hash: new Uint8Array(20).fill(9) },
            inputText: new Uint8Array(),
            state: new Uint8Array(),
            transactionId: new Uint8Array(),
            address: new Uint8Array(),
          },
          options(alice),
          alice.signer,
        ),
      );
      const answer = ok(await rpc.client.validateMessage(frame));
      assert.equal(answer.valid, true);
      assert.ok(same(answer.message!.hash, frame.hash));
      const cast = await castAdd(alice, "validated only");
      assert.equal(ok(await rpc.client.validateMessage(cast)).valid, true);
      assert.equal(
        refused(await rpc.client.getCast({ fid: alice.fid, hash: cast.hash })).errCode,
        "not_found",
      );
    });

    it("merges or refuses each message of a bulk submit on its own, in order", async () => {
      const one = await castAdd(alice, "bulk one");
      const two = await castAdd(alice, "bulk two");
      const forged = { ...(await castAdd(alice, "forged")), signature: new Uint8Array(64) };
      const answer = ok(await rpc.client.submitBulkMessages({ messages: [one, forged, two, one] }));
      assert.equal(answer.messages.length, 4);
      assert.ok(same(answer.messages[0]!.message!.hash, one.hash));
      assert.deepEqual(
        { ...answer.messages[1]!.messageError, hash: Buffer.from(answer.messages[1]!.messageError!.hash) },
        {
          hash: Buffer.from(forged.hash),
          errCode: "bad_request.validation_failure",
          message: "invalid signature",
        },
      );
      assert.equal(answer.messages[2]!.message!.data!.castAddBody!.text, "bulk two");
      assert.equal(answer.messages[3]!.messageError!.errCode, "bad_request.duplicate");
    });

    it("refuses what the HTTP API refuses, with the same HubError codes and sentences", async () => {
      const forged = { ...(await castAdd(alice, "forged")), signature: new Uint8Array(64) };
      const { signer: stranger } = await newSigner();
      const unknownSigner = unwrap(
        await core.makeCastAdd(
          { text: "who?", embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 },
          options(alice),
          stranger,
        ),
      );
      const future = await signedByHand(alice, {
        type: 1,
        fid: alice.fid,
        timestamp: protocolNow() + 3600,
        network: DEVNET,
        castAddBody: castBody("too early"),
      });
      for (const message of [forged, unknownSigner, future]) {
        const overHttp = await post(stack, "/v1/submitMessage", encode(message));
        const overGrpc = refused(await rpc.client.submitMessage(message));
        assert.equal(overGrpc.errCode, overHttp.body.errCode);
        assert.equal(overGrpc.message, overHttp.body.details);
      }
      const missing = refused(await rpc.client.getCast({ fid: alice.fid, hash: new Uint8Array(20) }));
      assert.deepEqual([missing.errCode, missing.message], ["not_found", "cast not found"]);
      const badToken = refused(
        await rpc.client.getCastsByFid({ fid: alice.fid, pageToken: new Uint8Array(3) }),
      );
      assert.equal(badToken.errCode, "bad_request.invalid_param");
    });

    it("answers the peer-to-peer methods UNIMPLEMENTED, saying why, and lists no connected peers", async () => {
      const answer = refused(await rpc.client.getShardChunks({ shardId: 1, startBlockNumber: 0 }));
      assert.equal(answer.errCode, "not_implemented");
      assert.equal(
        answer.message,
        "GetShardChunks is not implemented: castnet is a single local node: it has no blocks, shard chunks or sync trie",
      );
      // A single node has no peers: an empty list rather than a refusal.
      assert.deepEqual(ok(await rpc.client.getConnectedPeers({})), { contacts: [] });
    });
  });

  describe(`hub gRPC RPC auth on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    let rpc: GrpcClient;
    before(async () => {
      stack = await startStack(engine, { rpcAuth: "user:secret" });
      alice = await newAccount(stack);
      rpc = await connect(stack.hub);
    });
    after(async () => {
      rpc?.close();
      await stack?.close();
    });

    it("needs the credentials in the authorization metadata of submits only", async () => {
      const cast = await castAdd(alice, "authenticated");
      const none = refused(await rpc.client.submitMessage(cast));
      assert.deepEqual(
        [none.errCode, none.message],
        ["unauthenticated", "authentication failed: Authorization header is empty"],
      );
      const wrong = refused(await rpc.client.submitMessage(cast, getAuthMetadata("user", "wrong")));
      assert.equal(wrong.message, "authentication failed: invalid username or password");
      const bulk = refused(await rpc.client.submitBulkMessages({ messages: [cast] }));
      assert.equal(bulk.errCode, "unauthenticated");
      ok(await rpc.client.submitMessage(cast, getAuthMetadata("user", "secret")));
      ok(await rpc.client.getCast({ fid: alice.fid, hash: cast.hash }));
    });
  });
}
