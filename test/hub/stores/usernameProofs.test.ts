/**
 * The username proofs store (docs/reference/protocol-rules.md §4, §5, §7): name-service proofs
 * submitted as USERNAME_PROOF messages, keyed by name; the later proof of the same owner wins; the
 * owner must be the fid's custody address (or one it verified); merges and deletions are reported as
 * MERGE_USERNAME_PROOF events; 5 proofs per unit, the oldest pruned first. Fname proofs come from the
 * registry: test/hub/names.test.ts.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { testEngines } from "../../support/databases.js";
import {
  allEvents,
  core,
  get,
  hex,
  newAccount,
  options,
  submit,
  unwrap,
  type Account,
  type Json,
  type Stack,
} from "../support.js";
import { storeSuite } from "./support.js";

const EPOCH_SECONDS = 1609459200;

interface Proof {
  message: core.Message;
  body: core.UserNameProof;
  signature: Uint8Array;
}

/** A name-service proof of `name` for the account, claimed by `owner` (default: its custody key). */
async function ensProof(
  account: Account,
  name: string,
  timestamp: number,
  owner = account.custody,
): Promise<Proof> {
  const claim = core.makeUserNameProofClaim({ name, owner: owner.address, timestamp });
  const signature = unwrap(await new core.ViemLocalEip712Signer(owner).signUserNameProofClaim(claim));
  const body = {
    timestamp,
    name: new TextEncoder().encode(name),
    owner: core.hexStringToBytes(owner.address)._unsafeUnwrap(),
    signature,
    fid: account.fid,
    type: 2,
  };
  const message = unwrap(
    await core.makeUsernameProof(body, options(account, timestamp - EPOCH_SECONDS), account.signer),
  );
  return { message, body, signature };
}

function username(account: Account, value: string) {
  return core.makeUserDataAdd({ type: 6, value }, options(account), account.signer).then(unwrap);
}

async function proofEvents(stack: Stack): Promise<Json[]> {
  return (await allEvents(stack))
    .filter((e) => e.type === "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF")
    .map((e) => e.mergeUsernameProofBody);
}

for (const engine of await testEngines()) {
  describe(`username proofs store on ${engine.engine}`, { skip: engine.skip }, () => {
    const hub = storeSuite(engine, { account: false });
    const now = Math.floor(Date.now() / 1000);

    describe("a proof whose owner is the fid's custody address", () => {
      let bob: Account;
      let proof: Proof;
      let merged: { status: number; body: Json };
      before(async () => {
        bob = await newAccount(hub.stack);
        proof = await ensProof(bob, "bob.eth", now - 100);
        merged = await submit(hub.stack, proof.message);
      });

      it("merges and is served by name", async () => {
        assert.equal(merged.status, 200, JSON.stringify(merged.body));
        assert.deepEqual((await get(hub.stack, "/v1/userNameProofByName?name=bob.eth")).body, {
          timestamp: now - 100,
          name: "bob.eth",
          owner: bob.custody.address.toLowerCase(),
          signature: Buffer.from(proof.signature).toString("base64"),
          fid: bob.fid,
          type: "USERNAME_TYPE_NAMESERVICE_L1",
        });
      });

      it("is reported with its message in a MERGE_USERNAME_PROOF event", async () => {
        const event = (await proofEvents(hub.stack)).at(-1);
        assert.equal(event.usernameProofMessage.hash, hex(proof.message.hash));
      });

      it("lets the fid take the name as its USERNAME", async () => {
        assert.equal((await submit(hub.stack, await username(bob, "bob.eth"))).status, 200);
      });

      it("is refused when submitted again, as a duplicate", async () => {
        const duplicate = await submit(hub.stack, proof.message);
        assert.equal(duplicate.status, 400);
        assert.equal(duplicate.body.errCode, "bad_request.duplicate");
        assert.equal(duplicate.body.details, "message has already been merged");
      });

      it("gives way to a later proof of the same name and owner, which deletes it", async () => {
        const later = await ensProof(bob, "bob.eth", now - 50);
        assert.equal((await submit(hub.stack, later.message)).status, 200);
        const event = (await proofEvents(hub.stack)).at(-1);
        assert.equal(event.usernameProofMessage.hash, hex(later.message.hash));
        assert.equal(event.deletedUsernameProofMessage.hash, hex(proof.message.hash));
        assert.equal((await get(hub.stack, "/v1/userNameProofByName?name=bob.eth")).body.timestamp, now - 50);
      });

      it("refuses a proof earlier than the one it holds", async () => {
        const earlier = await submit(hub.stack, (await ensProof(bob, "bob.eth", now - 200)).message);
        assert.equal(earlier.status, 400);
        assert.equal(earlier.body.errCode, "bad_request.conflict");
        assert.equal(earlier.body.details, "message conflicts with a more recent add");
      });
    });

    it("refuses a proof whose owner is not an address of the fid", async () => {
      const eve = await newAccount(hub.stack);
      const stranger = privateKeyToAccount(generatePrivateKey());
      const refused = await submit(hub.stack, (await ensProof(eve, "eve.eth", now - 100, stranger)).message);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.details, `ens name does not belong to fid: ${eve.fid}`);
    });

    describe("a full store", () => {
      let carol: Account;
      const proofs: Proof[] = [];
      before(async () => {
        carol = await newAccount(hub.stack);
        for (let i = 0; i < 6; i++) proofs.push(await ensProof(carol, `carol${i}.eth`, now - 100 + i));
        for (const p of proofs) assert.equal((await submit(hub.stack, p.message)).status, 200);
      });

      it("prunes its oldest proof to stay within 5 per unit", async () => {
        const served = (await get(hub.stack, `/v1/userNameProofsByFid?fid=${carol.fid}`)).body.proofs;
        assert.deepEqual(served.map((p: Json) => p.name).sort(), [
          "carol1.eth",
          "carol2.eth",
          "carol3.eth",
          "carol4.eth",
          "carol5.eth",
        ]);
        assert.equal((await get(hub.stack, "/v1/userNameProofByName?name=carol0.eth")).status, 404);
      });

      it("reports the pruned proof in a MERGE_USERNAME_PROOF event with only its deleted fields", async () => {
        const pruned = (await proofEvents(hub.stack)).filter(
          (body) => body.deletedUsernameProofMessage?.hash === hex(proofs[0]!.message.hash),
        );
        assert.equal(pruned.length, 1);
        assert.deepEqual(Object.keys(pruned[0]).sort(), [
          "deletedUsernameProof",
          "deletedUsernameProofMessage",
        ]);
      });

      it("holds 5 proofs per storage unit", async () => {
        assert.deepEqual(await hub.storeLimit(carol.fid, "USERNAME_PROOFS"), [5, 5]);
      });
    });
  });
}
