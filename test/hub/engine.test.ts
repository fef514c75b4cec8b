/** What the hub checks before a merge (docs/reference/protocol-rules.md §3), and the events merges write. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { HubError } from "../../src/protocol/errors.js";
import { testEngines } from "../support/databases.js";
import {
  castAdd,
  castBody,
  core,
  DEVNET,
  encode,
  newAccount,
  newSigner,
  protocolNow,
  signedByHand,
  startStack,
  unwrap,
  type Account,
  type Stack,
} from "./support.js";

async function refusal(promise: Promise<unknown>): Promise<HubError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HubError) return error;
    throw error;
  }
  assert.fail("expected the hub to refuse the message");
}

for (const engine of await testEngines()) {
  describe(`hub checks and merge events on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: Stack;
    before(async () => {
      stack = await startStack(engine);
    });
    after(async () => {
      await stack?.close();
    });

    describe("state checks", () => {
      let alice: Account;
      before(async () => {
        alice = await newAccount(stack);
      });

      it("refuses a fid the chain has not registered", async () => {
        const stranger = { ...alice, fid: alice.fid + 1000 };
        const unknownFid = await refusal(
          stack.hub.service.submitMessage(encode(await castAdd(stranger, "hi"))),
        );
        assert.equal(unknownFid.errCode, "bad_request.unknown_fid");
        assert.equal(unknownFid.message, `unknown fid: ${alice.fid + 1000}`);
      });

      it("refuses a signer the fid has not added", async () => {
        const other = await newSigner();
        const unknownSigner = await refusal(
          stack.hub.service.submitMessage(encode(await castAdd({ ...alice, signer: other.signer }, "hi"))),
        );
        assert.equal(unknownSigner.errCode, "bad_request.unknown_signer");
        assert.equal(
          unknownSigner.message,
          `invalid signer: signer ${other.key} not found for fid ${alice.fid}`,
        );
      });

      it("refuses a message for another network", async () => {
        const mainnet = unwrap(
          await core.makeCastAdd(
            { text: "hi", embeds: [], embedsDeprecated: [], mentions: [], mentionsPositions: [], type: 0 },
            { fid: alice.fid, network: 1 },
            alice.signer,
          ),
        );
        const network = await refusal(stack.hub.service.submitMessage(encode(mainnet)));
        assert.equal(network.errCode, "bad_request.validation_failure");
        assert.equal(
          network.message,
          "incorrect network: SOCIAL_NETWORK_MAINNET (expected: SOCIAL_NETWORK_DEVNET)",
        );
      });

      it("refuses a fid without storage", async () => {
        const broke = await newAccount(stack, 0);
        const storage = await refusal(stack.hub.service.submitMessage(encode(await castAdd(broke, "hi"))));
        assert.equal(storage.errCode, "bad_request.no_storage");
      });
    });

    describe("stateless checks, after the state checks, in the reference's sentences", () => {
      let alice: Account;
      before(async () => {
        alice = await newAccount(stack);
      });

      it("refuses a signature that does not match", async () => {
        const cast = await castAdd(alice, "tampered");
        const tampered = { ...cast, signature: new Uint8Array(64).fill(7) };
        const bad = await refusal(stack.hub.service.submitMessage(encode(tampered)));
        assert.equal(bad.errCode, "bad_request.validation_failure");
        assert.equal(bad.message, "invalid signature");
      });

      it("refuses a timestamp more than 10 minutes ahead", async () => {
        const future = await signedByHand(alice, {
          type: 1,
          fid: alice.fid,
          timestamp: protocolNow() + 3600,
          network: DEVNET,
          castAddBody: castBody("from the future"),
        });
        const later = await refusal(stack.hub.service.submitMessage(encode(future)));
        assert.equal(later.message, "timestamp more than 10 mins in the future");
      });
    });

    it("writes a merge event per merge, in commit order", async () => {
      const service = stack.hub.service;
      const alice = await newAccount(stack);
      const first = await service.events.page(0, 1_000_000);
      const a = await castAdd(alice, "one");
      const b = await castAdd(alice, "two");
      await service.submitMessage(encode(a));
      await service.submitMessage(encode(b));
      const all = (await service.events.page(0, 1_000_000)).events;
      const fresh = all.slice(first.events.length);
      assert.deepEqual(
        fresh.map((e) => [e.type, e.mergeMessageBody?.message?.data?.castAddBody?.text]),
        [
          [1, "one"],
          [1, "two"],
        ],
      );
      const ids = all.map((e) => e.id);
      assert.deepEqual(
        ids,
        [...ids].sort((x, y) => x - y),
      );
      assert.equal(new Set(ids).size, ids.length);
    });
  });
}
