/**
 * What the successor node's API added that castnet serves: its reaction_type spellings, the shard
 * keys of /v1/info and GetInfo, the (empty) connected peers, and what an address is to a fid, over
 * HTTP and over gRPC through the reference client.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { testEngines } from "../support/databases.js";
import { connect, ok, refused, type GrpcClient } from "./grpc/support.js";
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
  submit,
  unwrap,
  verificationAdd,
  type Account,
  type Json,
  type Stack,
} from "./support.js";

const REACTION_TYPE_CHOICES =
  "reaction_type must be one of REACTION_TYPE_LIKE, REACTION_TYPE_RECAST, Like, Recast or its number";
const ADDRESS_LENGTH =
  "address must be 20 bytes (an Ethereum address) or 32 (a Solana address or an auth address's key)";

/** An auth address's key as the chain holds it: a 12-byte big-endian index, then the address. */
function authKey(address: `0x${string}`, index = 0): `0x${string}` {
  return `0x${index.toString(16).padStart(24, "0")}${address.slice(2).toLowerCase()}`;
}

const bytes = (value: string) => new Uint8Array(Buffer.from(value.replace(/^0x/, ""), "hex"));

for (const engine of await testEngines()) {
  describe(`hub routes of the successor node on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let rpc: GrpcClient;
    let alice: Account;
    let bob: Account;
    before(async () => {
      stack = await startStack(engine);
      rpc = await connect(stack.hub);
      alice = await newAccount(stack);
      bob = await newAccount(stack);
    });
    after(async () => {
      rpc?.close();
      await stack?.close();
    });

    it("reports one shard in /v1/info and GetInfo, counting what the successor's shard counts", async () => {
      // Two accounts: 3 on-chain events each (register, rent, key). One cast, one fname proof.
      assert.equal((await submit(stack, await castAdd(alice, "counted"))).status, 200);
      await registerName(stack, alice, "shardcount");
      await stack.hub.service.syncNames();

      const plain = await get(stack, "/v1/info");
      assert.equal(plain.status, 200);
      const { approxSize, ...shard } = plain.body.shardInfos[0];
      assert.ok(Number.isSafeInteger(approxSize) && approxSize > 0, String(approxSize));
      assert.match(plain.body.peerId, /^castnet-[0-9a-f]{24}$/);
      assert.deepEqual(plain.body, {
        version: "0.1.0",
        isSyncing: false,
        nickname: "castnet",
        rootHash: "",
        peerId: plain.body.peerId,
        hubOperatorFid: 0,
        numShards: 1,
        shardInfos: [{ ...shard, approxSize }],
      });
      assert.deepEqual(Object.keys(plain.body.shardInfos[0]), [
        "shardId",
        "maxHeight",
        "numMessages",
        "numFidRegistrations",
        "approxSize",
        "blockDelay",
        "mempoolSize",
      ]);
      // 1 message + 6 on-chain events + 1 fname proof, as the successor's sync trie holds them.
      assert.deepEqual(shard, {
        shardId: 1,
        maxHeight: 0,
        numMessages: 8,
        numFidRegistrations: 2,
        blockDelay: 0,
        mempoolSize: 0,
      });

      const withStats = await get(stack, "/v1/info?dbstats=1");
      assert.deepEqual(Object.keys(withStats.body), [
        "version",
        "isSyncing",
        "nickname",
        "rootHash",
        "dbStats",
        "peerId",
        "hubOperatorFid",
        "numShards",
        "shardInfos",
      ]);
      // The reference hub's counts keep their own meaning.
      const { approxSize: statsSize, ...stats } = withStats.body.dbStats;
      assert.deepEqual(stats, { numMessages: 1, numFidEvents: 6, numFnameEvents: 1 });
      assert.ok(statsSize > 0);

      const info = ok(await rpc.client.getInfo({}));
      const [grpcShard] = info.shardInfos;
      assert.ok(grpcShard !== undefined && grpcShard.approxSize > 0);
      assert.deepEqual(
        {
          ...info,
          shardInfos: [{ ...grpcShard, approxSize: 0 }],
          dbStats: { ...info.dbStats, approxSize: 0 },
        },
        {
          version: "0.1.0",
          dbStats: { numMessages: 8, numFidRegistrations: 2, approxSize: 0 },
          numShards: 1,
          shardInfos: [
            {
              shardId: 1,
              maxHeight: 0,
              numMessages: 8,
              numFidRegistrations: 2,
              approxSize: 0,
              blockDelay: 0,
              mempoolSize: 0,
              numOnchainEvents: 6,
            },
          ],
          peerId: plain.body.peerId,
          nextEngineVersionTimestamp: 0,
        },
      );
      assert.equal(info.dbStats!.approxSize, grpcShard.approxSize);
    });

    it("answers reaction_type spelled Like or Recast on every route that takes it", async () => {
      const cast = await castAdd(bob, "react to me");
      assert.equal((await submit(stack, cast)).status, 200);
      const target = { fid: bob.fid, hash: cast.hash };
      const url = "https://example.com/spelled";
      const at = (offset: number) => options(alice, protocolNow() - offset);
      const like = unwrap(await core.makeReactionAdd({ type: 1, targetCastId: target }, at(3), alice.signer));
      const recast = unwrap(
        await core.makeReactionAdd({ type: 2, targetCastId: target }, at(2), alice.signer),
      );
      const urlLike = unwrap(await core.makeReactionAdd({ type: 1, targetUrl: url }, at(1), alice.signer));
      const stored: Record<string, Json> = {};
      for (const [name, message] of Object.entries({ like, recast, urlLike })) {
        const answer = await submit(stack, message);
        assert.equal(answer.status, 200);
        stored[name] = answer.body;
      }
      const castTarget = `target_fid=${bob.fid}&target_hash=${hex(cast.hash)}`;
      const page = (...messages: Json[]) => ({ messages, nextPageToken: "" });

      for (const [spelling, message] of [
        ["Like", stored.like],
        ["Recast", stored.recast],
      ] as const) {
        const byId = await get(
          stack,
          `/v1/reactionById?fid=${alice.fid}&${castTarget}&reaction_type=${spelling}`,
        );
        assert.deepEqual([byId.status, byId.body], [200, message]);
      }
      const urlById = await get(
        stack,
        `/v1/reactionById?fid=${alice.fid}&target_url=${encodeURIComponent(url)}&reaction_type=Like`,
      );
      assert.deepEqual(urlById.body, stored.urlLike);

      const lists: [string, Json, Json][] = [
        [`/v1/reactionsByFid?fid=${alice.fid}&reaction_type=Like`, page(stored.like, stored.urlLike), "1"],
        [`/v1/reactionsByFid?fid=${alice.fid}&reaction_type=Recast`, page(stored.recast), "2"],
        [`/v1/reactionsByCast?${castTarget}&reaction_type=Like`, page(stored.like), "1"],
        [`/v1/reactionsByCast?${castTarget}&reaction_type=Recast`, page(stored.recast), "2"],
        [
          `/v1/reactionsByTarget?url=${encodeURIComponent(url)}&reaction_type=Like`,
          page(stored.urlLike),
          "1",
        ],
        [`/v1/reactionsByTarget?url=${encodeURIComponent(url)}&reaction_type=Recast`, page(), "2"],
      ];
      for (const [path, expected, number] of lists) {
        const answer = await get(stack, path);
        assert.deepEqual([answer.status, answer.body], [200, expected], path);
        // The same list as the number and the full enum name give.
        const fullName = number === "1" ? "REACTION_TYPE_LIKE" : "REACTION_TYPE_RECAST";
        for (const other of [number, fullName]) {
          const again = await get(stack, path.replace(/reaction_type=\w+$/, `reaction_type=${other}`));
          assert.deepEqual(again.body, expected, `${path} as ${other}`);
        }
      }

      // The successor matches its names exactly, and so does castnet.
      for (const spelling of ["like", "RECAST", "None", "Like%20"]) {
        for (const path of [
          `/v1/reactionById?fid=${alice.fid}&${castTarget}&reaction_type=${spelling}`,
          `/v1/reactionsByFid?fid=${alice.fid}&reaction_type=${spelling}`,
          `/v1/reactionsByCast?${castTarget}&reaction_type=${spelling}`,
          `/v1/reactionsByTarget?url=${encodeURIComponent(url)}&reaction_type=${spelling}`,
        ]) {
          const answer = await get(stack, path);
          assert.equal(answer.status, 400, path);
          assert.deepEqual(
            [answer.body.errCode, answer.body.details],
            ["bad_request.invalid_param", REACTION_TYPE_CHOICES],
          );
        }
      }
    });

    it("answers no connected peers, over HTTP and gRPC", async () => {
      const answer = await get(stack, "/v1/currentPeers");
      assert.deepEqual([answer.status, answer.body], [200, { contacts: [], peers: [] }]);
      // The 0.17 client's GetConnectedPeersResponse predates the successor's `peers` list.
      assert.deepEqual(ok(await rpc.client.getConnectedPeers({})), { contacts: [] });
    });

    describe("fidAddressType", () => {
      const wallet = privateKeyToAccount(generatePrivateKey());
      const other = privateKeyToAccount(generatePrivateKey());
      let verified: `0x${string}`;

      async function both(fid: number, address: string) {
        const overHttp = await get(stack, `/v1/fidAddressType?fid=${fid}&address=${address}`);
        assert.equal(overHttp.status, 200, JSON.stringify(overHttp.body));
        const overGrpc = ok(await rpc.client.getFidAddressType({ fid, address: bytes(address) }));
        assert.deepEqual(overGrpc, {
          isCustody: overHttp.body.is_custody,
          isAuth: overHttp.body.is_auth,
          isVerified: overHttp.body.is_verified,
        });
        return overHttp.body;
      }
      const answer = (custody: boolean, auth: boolean, verification: boolean) => ({
        is_custody: custody,
        is_auth: auth,
        is_verified: verification,
      });

      before(async () => {
        // Alice verifies her own custody address and a second wallet.
        for (const address of [alice.custody, other]) {
          const { message } = await verificationAdd(alice, address);
          assert.equal((await submit(stack, message)).status, 200);
        }
        verified = other.address;
      });

      it("tells a custody address, a verified address and an address of nothing apart", async () => {
        assert.deepEqual(await both(alice.fid, alice.custody.address), answer(true, false, true));
        assert.deepEqual(await both(alice.fid, verified), answer(false, false, true));
        assert.deepEqual(await both(bob.fid, bob.custody.address), answer(true, false, false));
        assert.deepEqual(await both(bob.fid, alice.custody.address), answer(false, false, false));
        assert.deepEqual(await both(bob.fid, verified), answer(false, false, false));
        assert.deepEqual(await both(999_999, alice.custody.address), answer(false, false, false));
        // Hex as the successor reads it: 0x optional, either case.
        const bare = alice.custody.address.slice(2).toUpperCase();
        assert.deepEqual(await both(alice.fid, bare), answer(true, false, true));
      });

      it("finds an auth address while its key is added on chain, at any index", async () => {
        const chain = stack.chain.chain;
        await chain.addKey({ fid: alice.fid, key: authKey(wallet.address), keyType: 2 });
        await stack.hub.service.syncChain();
        assert.deepEqual(await both(alice.fid, wallet.address), answer(false, true, false));
        // The key itself, as the successor compares it, names the same auth address.
        assert.deepEqual(await both(alice.fid, authKey(wallet.address)), answer(false, true, false));
        assert.deepEqual(await both(bob.fid, wallet.address), answer(false, false, false));
        // An Ed25519 key of the fid is no auth address.
        assert.deepEqual(await both(alice.fid, alice.signerKey), answer(false, false, false));

        await chain.removeKey(alice.fid, authKey(wallet.address));
        await stack.hub.service.syncChain();
        assert.deepEqual(await both(alice.fid, wallet.address), answer(false, false, false));

        // A removed key cannot come back; the wallet is added again at the next index.
        await chain.addKey({ fid: alice.fid, key: authKey(wallet.address, 1), keyType: 2 });
        await stack.hub.service.syncChain();
        assert.deepEqual(await both(alice.fid, wallet.address), answer(false, true, false));
        assert.deepEqual(await both(alice.fid, authKey(wallet.address)), answer(false, false, false));
      });

      it("refuses an address that is not 20 or 32 bytes of hex, over HTTP and gRPC", async () => {
        const cases: [string, string][] = [
          [`/v1/fidAddressType?fid=${alice.fid}`, 'query parameter "address" is required'],
          [`/v1/fidAddressType?address=${verified}`, 'query parameter "fid" is required'],
          [`/v1/fidAddressType?fid=x&address=${verified}`, 'query parameter "fid" must be integer'],
          [`/v1/fidAddressType?fid=${alice.fid}&address=zz`, "address must be hex"],
          [`/v1/fidAddressType?fid=${alice.fid}&address=0x123`, "address must be hex"],
          [`/v1/fidAddressType?fid=${alice.fid}&address=`, ADDRESS_LENGTH],
          [`/v1/fidAddressType?fid=${alice.fid}&address=0x${"ab".repeat(21)}`, ADDRESS_LENGTH],
        ];
        for (const [path, details] of cases) {
          const response = await get(stack, path);
          assert.equal(response.status, 400, path);
          assert.equal(response.body.details, details, path);
          assert.equal(response.body.name, "HubError");
        }
        for (const address of [new Uint8Array(0), new Uint8Array(21), new Uint8Array(33)]) {
          const refusal = refused(await rpc.client.getFidAddressType({ fid: alice.fid, address }));
          assert.deepEqual([refusal.errCode, refusal.message], ["bad_request.invalid_param", ADDRESS_LENGTH]);
        }
      });
    });
  });
}
