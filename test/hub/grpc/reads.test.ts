/**
 * Every gRPC read through the reference client library, each compared with its HTTP twin on the same
 * data: the same messages in the same order, walked one page at a time with pageToken, and reversed.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { HubResult, MessagesResponse } from "@farcaster/hub-nodejs";
import { testEngines } from "../../support/databases.js";
import {
  castAdd,
  core,
  get,
  hex,
  newAccount,
  options,
  protocolNow,
  registerName,
  startStack,
  unwrap,
  verificationAdd,
  type Account,
  type Json,
  type Stack,
} from "../support.js";
import { connect, ok, refused, type GrpcClient } from "./support.js";

type Paging = { pageSize?: number; pageToken?: Uint8Array; reverse?: boolean };
type List = (request: Paging) => Promise<HubResult<MessagesResponse>>;

/** The hashes of a list, read one message per page. */
async function walk(list: List, reverse = false): Promise<string[]> {
  const hashes: string[] = [];
  let pageToken: Uint8Array | undefined;
  do {
    const page = ok(await list({ pageSize: 1, pageToken, reverse }));
    assert.ok(page.messages.length <= 1);
    hashes.push(...page.messages.map((m) => hex(m.hash)));
    pageToken =
      page.nextPageToken !== undefined && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
  } while (pageToken !== undefined);
  return hashes;
}

for (const engine of await testEngines()) {
  describe(`hub gRPC reads on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    let bob: Account;
    let rpc: GrpcClient;
    let first: core.Message;
    const channel = "https://example.com/channel";
    const early = protocolNow() - 100;

    /** Compares a gRPC list with the HTTP list at `url`, forward one page at a time and reversed. */
    async function sameList(list: List, url: string, expected: number): Promise<void> {
      const overHttp = ((await get(stack, url)).body.messages as Json[]).map((m) => m.hash as string);
      assert.equal(overHttp.length, expected, url);
      assert.deepEqual(await walk(list), overHttp, url);
      assert.deepEqual(await walk(list, true), [...overHttp].reverse(), url);
      const whole = ok(await list({}));
      assert.deepEqual(
        whole.messages.map((m) => hex(m.hash)),
        overHttp,
      );
      assert.equal(whole.nextPageToken, undefined);
    }

    before(async () => {
      stack = await startStack(engine);
      [alice, bob] = [await newAccount(stack), await newAccount(stack)];
      rpc = await connect(stack.hub);
      first = await castAdd(alice, "first", {}, early);
      const firstId = { fid: alice.fid, hash: first.hash };
      const at = options(bob);
      await registerName(stack, bob, "bobreads");
      const messages = [
        first,
        await castAdd(alice, "hi bob", { mentions: [bob.fid], mentionsPositions: [0] }),
        await castAdd(alice, "a reply", { parentCastId: firstId }),
        await castAdd(alice, "in a channel", { parentUrl: channel }),
        unwrap(await core.makeReactionAdd({ type: 1, targetCastId: firstId }, at, bob.signer)),
        unwrap(await core.makeReactionAdd({ type: 2, targetCastId: firstId }, at, bob.signer)),
        unwrap(await core.makeReactionAdd({ type: 1, targetUrl: channel }, at, bob.signer)),
        unwrap(await core.makeLinkAdd({ type: "follow", targetFid: alice.fid }, at, bob.signer)),
        unwrap(
          await core.makeLinkAdd({ type: "follow", targetFid: alice.fid }, options(alice), alice.signer),
        ),
        unwrap(await core.makeUserDataAdd({ type: 2, value: "Bob" }, at, bob.signer)),
        unwrap(await core.makeUserDataAdd({ type: 3, value: "bio" }, at, bob.signer)),
        (await verificationAdd(bob)).message,
      ];
      for (const message of messages) ok(await rpc.client.submitMessage(message));
    });
    after(async () => {
      rpc?.close();
      await stack?.close();
    });

    it("serves casts by id, fid, parent and mention", async () => {
      const cast = ok(await rpc.client.getCast({ fid: alice.fid, hash: first.hash }));
      assert.equal(cast.data!.castAddBody!.text, "first");
      const c = rpc.client;
      await sameList((r) => c.getCastsByFid({ fid: alice.fid, ...r }), `/v1/castsByFid?fid=${alice.fid}`, 4);
      await sameList(
        (r) => c.getCastsByParent({ parentCastId: { fid: alice.fid, hash: first.hash }, ...r }),
        `/v1/castsByParent?fid=${alice.fid}&hash=${hex(first.hash)}`,
        1,
      );
      await sameList(
        (r) => c.getCastsByParent({ parentUrl: channel, ...r }),
        `/v1/castsByParent?url=${encodeURIComponent(channel)}`,
        1,
      );
      await sameList(
        (r) => c.getCastsByMention({ fid: bob.fid, ...r }),
        `/v1/castsByMention?fid=${bob.fid}`,
        1,
      );
      assert.equal(refused(await c.getCastsByParent({})).errCode, "bad_request.invalid_param");
    });

    it("serves reactions by id, fid, cast and target", async () => {
      const c = rpc.client;
      const target = { fid: alice.fid, hash: first.hash };
      const like = ok(await c.getReaction({ fid: bob.fid, reactionType: 1, targetCastId: target }));
      assert.equal(like.data!.reactionBody!.type, 1);
      ok(await c.getReaction({ fid: bob.fid, reactionType: 1, targetUrl: channel }));
      await sameList(
        (r) => c.getReactionsByFid({ fid: bob.fid, ...r }),
        `/v1/reactionsByFid?fid=${bob.fid}`,
        3,
      );
      await sameList(
        (r) => c.getReactionsByFid({ fid: bob.fid, reactionType: 2, ...r }),
        `/v1/reactionsByFid?fid=${bob.fid}&reaction_type=2`,
        1,
      );
      const byCast = `/v1/reactionsByCast?target_fid=${alice.fid}&target_hash=${hex(first.hash)}`;
      await sameList((r) => c.getReactionsByCast({ targetCastId: target, ...r }), byCast, 2);
      await sameList((r) => c.getReactionsByTarget({ targetCastId: target, ...r }), byCast, 2);
      await sameList(
        (r) => c.getReactionsByTarget({ targetUrl: channel, reactionType: 1, ...r }),
        `/v1/reactionsByTarget?url=${encodeURIComponent(channel)}&reaction_type=1`,
        1,
      );
    });

    it("serves links, user data and verifications", async () => {
      const c = rpc.client;
      ok(await c.getLink({ fid: bob.fid, linkType: "follow", targetFid: alice.fid }));
      await sameList((r) => c.getLinksByFid({ fid: bob.fid, ...r }), `/v1/linksByFid?fid=${bob.fid}`, 1);
      await sameList(
        (r) => c.getLinksByTarget({ targetFid: alice.fid, linkType: "follow", ...r }),
        `/v1/linksByTargetFid?target_fid=${alice.fid}&link_type=follow`,
        2,
      );
      const display = ok(await c.getUserData({ fid: bob.fid, userDataType: 2 }));
      assert.equal(display.data!.userDataBody!.value, "Bob");
      await sameList(
        (r) => c.getUserDataByFid({ fid: bob.fid, ...r }),
        `/v1/userDataByFid?fid=${bob.fid}`,
        2,
      );
      await sameList(
        (r) => c.getVerificationsByFid({ fid: bob.fid, ...r }),
        `/v1/verificationsByFid?fid=${bob.fid}`,
        1,
      );
      const [verification] = ok(await c.getVerificationsByFid({ fid: bob.fid })).messages;
      const address = verification!.data!.verificationAddAddressBody!.address;
      ok(await c.getVerification({ fid: bob.fid, address }));
      assert.equal(
        refused(await c.getLink({ fid: bob.fid, linkType: "follow", targetFid: bob.fid })).errCode,
        "not_found",
      );
    });

    it("serves every message of a store for backfill, between two timestamps", async () => {
      const c = rpc.client;
      await sameList(
        (r) => c.getAllCastMessagesByFid({ fid: alice.fid, ...r }),
        `/v1/castsByFid?fid=${alice.fid}`,
        4,
      );
      const later = ok(await c.getAllCastMessagesByFid({ fid: alice.fid, startTimestamp: early + 1 }));
      assert.equal(later.messages.length, 3);
      const earlier = ok(await c.getAllCastMessagesByFid({ fid: alice.fid, stopTimestamp: early }));
      assert.deepEqual(
        earlier.messages.map((m) => hex(m.hash)),
        [hex(first.hash)],
      );
      assert.equal(ok(await c.getAllReactionMessagesByFid({ fid: bob.fid })).messages.length, 3);
      assert.equal(ok(await c.getAllLinkMessagesByFid({ fid: bob.fid })).messages.length, 1);
      assert.equal(ok(await c.getAllUserDataMessagesByFid({ fid: bob.fid })).messages.length, 2);
      assert.equal(ok(await c.getAllVerificationMessagesByFid({ fid: bob.fid })).messages.length, 1);
      assert.equal(ok(await c.getLinkCompactStateMessageByFid({ fid: bob.fid })).messages.length, 0);
    });

    it("serves username proofs, on-chain events, fids, storage limits and info", async () => {
      const c = rpc.client;
      const proof = ok(await c.getUsernameProof({ name: new TextEncoder().encode("bobreads") }));
      assert.equal(proof.fid, bob.fid);
      assert.equal(ok(await c.getUserNameProofsByFid({ fid: bob.fid })).proofs.length, 1);

      const key = Buffer.from(alice.signerKey.slice(2), "hex");
      const signer = ok(await c.getOnChainSigner({ fid: alice.fid, signer: key }));
      assert.ok(Buffer.from(signer.signerEventBody!.key).equals(key));
      const signers = ok(await c.getOnChainSignersByFid({ fid: alice.fid }));
      assert.equal(signers.events.length, 1);
      const signerEvents = ok(await c.getOnChainEvents({ fid: alice.fid, eventType: 1, pageSize: 1 }));
      assert.equal(signerEvents.events.length, 1);
      assert.equal(signerEvents.nextPageToken, undefined);
      const registered = ok(await c.getIdRegistryOnChainEvent({ fid: alice.fid }));
      const custody = Buffer.from(alice.custody.address.slice(2), "hex");
      assert.ok(Buffer.from(registered.idRegisterEventBody!.to).equals(custody));
      assert.equal(ok(await c.getIdRegistryOnChainEventByAddress({ address: custody })).fid, alice.fid);

      const fids: number[] = [];
      let pageToken: Uint8Array | undefined;
      do {
        const page = ok(await c.getFids({ pageSize: 1, pageToken, shardId: 0 }));
        fids.push(...page.fids);
        pageToken = page.nextPageToken;
      } while (pageToken !== undefined && pageToken.length > 0);
      assert.deepEqual(fids, (await get(stack, "/v1/fids")).body.fids);
      const reversed = ok(await c.getFids({ reverse: true, shardId: 0 })).fids;
      assert.deepEqual(reversed, [...fids].reverse());

      const limits = ok(await c.getCurrentStorageLimitsByFid({ fid: alice.fid }));
      const overHttp = (await get(stack, `/v1/storageLimitsByFid?fid=${alice.fid}`)).body;
      assert.equal(limits.units, overHttp.units);
      assert.deepEqual(
        limits.limits.map((l) => [l.storeType, l.name, l.limit, l.used]),
        overHttp.limits.map((l: Json, i: number) => [i + 1, l.name, l.limit, l.used]),
      );
      const info = ok(await c.getInfo({}));
      const overHttpInfo = (await get(stack, "/v1/info")).body;
      assert.equal(info.numShards, overHttpInfo.numShards);
      assert.deepEqual(
        info.shardInfos.map((s) => [s.shardId, s.numMessages, s.numFidRegistrations]),
        overHttpInfo.shardInfos.map((s: Json) => [s.shardId, s.numMessages, s.numFidRegistrations]),
      );
      assert.equal(info.dbStats!.numMessages, overHttpInfo.shardInfos[0].numMessages);
    });

    it("serves hub events by id and in pages, as the HTTP API lists them", async () => {
      const c = rpc.client;
      const overHttp = (await get(stack, "/v1/events?from_event_id=0")).body.events as Json[];
      const ids: number[] = [];
      let pageToken: Uint8Array | undefined;
      do {
        const page = ok(await c.getEvents({ startId: 0, pageSize: 5, pageToken }));
        ids.push(...page.events.map((e) => e.id));
        pageToken = page.nextPageToken;
      } while (pageToken !== undefined && pageToken.length > 0);
      assert.deepEqual(
        ids,
        overHttp.map((e) => e.id),
      );
      const stopped = ok(await c.getEvents({ startId: overHttp[1].id, stopId: overHttp[3].id }));
      assert.deepEqual(
        stopped.events.map((e) => e.id),
        [overHttp[1].id, overHttp[2].id],
      );
      const one = ok(await c.getEvent({ id: overHttp[2].id, shardIndex: 0 }));
      assert.equal(one.type, 9);
      assert.equal(refused(await c.getEvent({ id: 1, shardIndex: 0 })).errCode, "not_found");
    });
  });
}
