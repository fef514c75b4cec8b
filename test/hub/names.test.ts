/**
 * Names: the registry's transfers become fname proofs at the hub, and USERNAME user data follows them.
 * Name-service proofs, submitted as messages, are the username proofs store's: stores/usernameProofs.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { HubError } from "../../src/protocol/errors.js";
import type { TransferFeed } from "../../src/interfaces/transferFeed.js";
import { testEngines } from "../support/databases.js";
import {
  allEvents,
  core,
  encode,
  get,
  newAccount,
  options,
  post,
  startStack,
  transferName,
  registerName,
  unwrap,
  type Account,
  type Json,
  type Stack,
} from "./support.js";

const ADMIN_FID = 424242;
const admin = privateKeyToAccount(generatePrivateKey());

function username(account: Account, value: string) {
  return core.makeUserDataAdd({ type: 6, value }, options(account), account.signer).then(unwrap);
}

/** The registry's in-process feed with some of its methods replaced. */
function feedWith(stack: Stack, overrides: Partial<TransferFeed>): TransferFeed {
  const feed = stack.registry.feed;
  return {
    signer: () => feed.signer(),
    transfersAfter: (id) => feed.transfersAfter(id),
    transfersByName: (name) => feed.transfersByName(name),
    onTransfer: (listener) => feed.onTransfer(listener),
    ...overrides,
  };
}

async function eventsOfType(stack: Stack, type: string): Promise<Json[]> {
  return (await allEvents(stack)).filter((e) => e.type === type);
}

for (const engine of await testEngines()) {
  describe(`hub names on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    let alice: Account;
    let bob: Account;
    before(async () => {
      stack = await startStack(engine, {}, { adminFids: { [ADMIN_FID]: admin.address } });
      alice = await newAccount(stack);
      bob = await newAccount(stack);
    });
    after(async () => {
      await stack?.close();
    });

    describe("a registered name", () => {
      let expected: Json;
      let proof: Json;
      before(async () => {
        await registerName(stack, alice, "alice1");
        const [transfer] = await stack.registry.feed.transfersByName("alice1");
        expected = {
          timestamp: transfer!.timestamp,
          name: "alice1",
          owner: alice.custody.address.toLowerCase(),
          signature: Buffer.from(transfer!.server_signature.slice(2), "hex").toString("base64"),
          fid: alice.fid,
          type: "USERNAME_TYPE_FNAME",
        };
      });

      it("reaches the hub by itself, as a proof served by name", async () => {
        for (let i = 0; i < 100; i++) {
          const response = await get(stack, "/v1/userNameProofByName?name=alice1");
          if (response.status === 200) {
            proof = response.body;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.deepEqual(proof, expected);
      });

      it("is served among the fid's proofs", async () => {
        assert.deepEqual((await get(stack, `/v1/userNameProofsByFid?fid=${alice.fid}`)).body, {
          proofs: [expected],
        });
      });

      it("is reported by a MERGE_USERNAME_PROOF event", async () => {
        const merged = await eventsOfType(stack, "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF");
        assert.deepEqual(merged.at(-1).mergeUsernameProofBody, { usernameProof: expected });
      });
    });

    it("accepts USERNAME user data only for a name the fid holds", async () => {
      const mine = await post(stack, "/v1/submitMessage", encode(await username(alice, "alice1")));
      assert.equal(mine.status, 200);
      const theirs = await post(stack, "/v1/submitMessage", encode(await username(bob, "alice1")));
      assert.equal(theirs.status, 400);
      assert.equal(theirs.body.details, `fid ${alice.fid} does not match message fid ${bob.fid}`);
      const nobody = await post(stack, "/v1/submitMessage", encode(await username(bob, "nobody")));
      assert.equal(nobody.body.details, "name nobody is not registered");
      const cleared = await post(stack, "/v1/submitMessage", encode(await username(bob, "")));
      assert.equal(cleared.status, 200);
    });

    describe("a name moved to another fid", () => {
      before(async () => {
        await transferName(
          stack,
          { name: "alice1", from: alice.fid, to: bob.fid, fid: ADMIN_FID, owner: bob.custody.address },
          admin,
        );
        await stack.hub.service.syncNames();
      });

      it("takes its proof to the new holder", async () => {
        const proof = (await get(stack, "/v1/userNameProofByName?name=alice1")).body;
        assert.equal(proof.fid, bob.fid);
        assert.equal(proof.owner, bob.custody.address.toLowerCase());
        assert.deepEqual((await get(stack, `/v1/userNameProofsByFid?fid=${alice.fid}`)).body, { proofs: [] });
      });

      it("revokes the old holder's USERNAME", async () => {
        assert.equal((await get(stack, `/v1/userDataByFid?fid=${alice.fid}&user_data_type=6`)).status, 404);
        const revoked = await eventsOfType(stack, "HUB_EVENT_TYPE_REVOKE_MESSAGE");
        assert.equal(revoked.at(-1).revokeMessageBody.message.data.userDataBody.value, "alice1");
      });

      it("is reported with the new proof and the deleted one", async () => {
        const merged = (await eventsOfType(stack, "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF")).at(
          -1,
        ).mergeUsernameProofBody;
        assert.equal(merged.usernameProof.fid, bob.fid);
        assert.equal(merged.deletedUsernameProof.fid, alice.fid);
      });
    });

    describe("a released name", () => {
      before(async () => {
        await transferName(
          stack,
          { name: "alice1", from: bob.fid, to: 0, fid: ADMIN_FID, owner: bob.custody.address },
          admin,
        );
        await stack.hub.service.syncNames();
      });

      it("has no proof", async () => {
        assert.equal((await get(stack, "/v1/userNameProofByName?name=alice1")).status, 404);
      });

      it("is reported with the deleted proof alone", async () => {
        const released = (await eventsOfType(stack, "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF")).at(
          -1,
        ).mergeUsernameProofBody;
        assert.deepEqual(Object.keys(released), ["deletedUsernameProof"]);
      });
    });

    it("accepts a USERNAME that arrives before the hub has seen its proof", async () => {
      // A hub that is never told about new transfers: it must fetch the name's transfers itself.
      const deaf = await stack.startSeparateHub({
        registry: feedWith(stack, { onTransfer: () => () => undefined }),
      });
      const carol = await newAccount(stack);
      await deaf.service.syncChain();
      await registerName(stack, carol, "carol1");
      const accepted = await deaf.service.submitMessage(encode(await username(carol, "carol1")));
      assert.equal(JSON.parse(accepted).data.userDataBody.value, "carol1");
    });

    it("skips transfers whose server signature is not the registry's", async () => {
      const impostor = privateKeyToAccount(generatePrivateKey()).address;
      const suspicious = await stack.startSeparateHub({
        registry: feedWith(stack, { signer: async () => impostor }),
      });
      await suspicious.service.syncNames();
      await assert.rejects(
        suspicious.service.names.proofByName("carol1"),
        (e: HubError) => e.errCode === "not_found",
      );
    });
  });
}
