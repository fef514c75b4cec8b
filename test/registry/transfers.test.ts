import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { REFERENCE } from "../../src/protocol/naming.js";
import { testEngines } from "../support/databases.js";
import { ADMIN_FID, Harness, type User, failure, proofTypedData } from "./support.js";

const DAY = 24 * 60 * 60;
const TRANSFER_KEYS = [
  "from",
  "id",
  "owner",
  "server_signature",
  "timestamp",
  "to",
  "user_signature",
  "username",
];

for (const engine of await testEngines()) {
  describe(`registry transfers on ${engine.engine}`, { skip: engine.skip }, () => {
    const h = new Harness(engine);
    let alice: User;
    let bob: User;

    before(async () => {
      await h.start(h.withAdmin);
      alice = await h.user();
      bob = await h.user();
    });
    after(() => h.stop());

    it("publishes its signer", async () => {
      assert.deepEqual((await h.get("/signer")).body, { signer: h.server.address });
    });

    it("publishes its clock", async () => {
      assert.deepEqual((await h.get("/current-time")).body, { currentTime: h.now });
    });

    it("answers /_health", async () => {
      assert.deepEqual((await h.get("/_health")).body, { status: "ok" });
    });

    let transfer: Record<string, unknown>;

    it("registers a name with a countersigned transfer", async () => {
      const timestamp = h.now - 5;
      const body = await h.body(alice.account, {
        name: "alice",
        from: 0,
        to: alice.fid,
        fid: alice.fid,
        timestamp,
      });
      const reply = await h.post(body);
      assert.equal(reply.status, 200);
      transfer = reply.body.transfer as Record<string, unknown>;
      assert.deepEqual(Object.keys(transfer).sort(), TRANSFER_KEYS);
      assert.deepEqual(transfer, {
        id: 1,
        timestamp,
        username: "alice",
        owner: alice.account.address.toLowerCase(),
        from: 0,
        to: alice.fid,
        user_signature: body.signature,
        server_signature: transfer.server_signature,
      });
      assert.match(String(transfer.server_signature), /^0x[0-9a-f]{130}$/);
      const signer = await recoverTypedDataAddress({
        ...proofTypedData({ name: "alice", timestamp, owner: alice.account.address }),
        signature: transfer.server_signature as `0x${string}`,
      });
      assert.equal(signer, h.server.address);
    });

    it("lists a new transfer and serves it as the current one of its fid and its name", async () => {
      assert.deepEqual((await h.get("/transfers")).body, { transfers: [transfer] });
      assert.deepEqual((await h.get(`/transfers/current?fid=${alice.fid}`)).body, { transfer });
      assert.deepEqual((await h.get("/transfers/current?name=alice")).body, { transfer });
      assert.deepEqual((await h.get("/transfers/current")).body, { transfer });
    });

    it("answers an identical registration replayed with the existing transfer", async () => {
      const [first] = (await h.get("/transfers?name=alice")).body.transfers as unknown[];
      // A retry signs again, later: the reference compares name and owner, not timestamp or signature.
      h.clock += 60_000;
      const replay = await h.register(alice, "alice");
      assert.equal(replay.status, 200);
      assert.deepEqual(replay.body, { transfer: first });
      assert.equal(((await h.get("/transfers")).body.transfers as unknown[]).length, 1);
    });

    it("accepts a user signature made under the reference profile's domain", async () => {
      const user = await h.user();
      const timestamp = h.now;
      const owner = user.account.address;
      const signature = await user.account.signTypedData(
        proofTypedData({ name: "refsigned", timestamp, owner }, { naming: REFERENCE }),
      );
      const reply = await h.post({
        name: "refsigned",
        from: 0,
        to: user.fid,
        fid: user.fid,
        owner,
        timestamp,
        signature,
      });
      assert.equal(reply.status, 200);
      // The server countersigns under its own (neutral) profile.
      const transfer = reply.body.transfer as { server_signature: `0x${string}` };
      const signer = await recoverTypedDataAddress({
        ...proofTypedData({ name: "refsigned", timestamp, owner }),
        signature: transfer.server_signature,
      });
      assert.equal(signer, h.server.address);
    });

    describe("refuses with the reference's codes", () => {
      it("UNAUTHORIZED: the requesting fid is not the one the name moves to or from", async () => {
        const body = await h.body(bob.account, { name: "bobby", from: 0, to: bob.fid, fid: alice.fid });
        assert.deepEqual(await h.post(body).then((r) => [r.status, r.body]), [400, failure("UNAUTHORIZED")]);
      });

      it("UNAUTHORIZED: a user moving a name to another fid, naming itself", async () => {
        const body = await h.body(alice.account, {
          name: "alice",
          from: alice.fid,
          to: bob.fid,
          fid: alice.fid,
        });
        assert.deepEqual((await h.post(body)).body, failure("UNAUTHORIZED"));
      });

      it("INVALID_FID_OWNER: the same move without naming a fid", async () => {
        const body = await h.body(alice.account, { name: "alice", from: alice.fid, to: bob.fid });
        assert.deepEqual((await h.post(body)).body, failure("INVALID_FID_OWNER"));
      });

      it("INVALID_FID_OWNER: the owner is not the fid's custody address", async () => {
        const stranger = privateKeyToAccount(generatePrivateKey());
        const body = await h.body(stranger, { name: "bobby", from: 0, to: bob.fid, fid: bob.fid });
        assert.deepEqual((await h.post(body)).body, failure("INVALID_FID_OWNER"));
        const other = await h.body(alice.account, { name: "bobby", from: 0, to: bob.fid, fid: bob.fid });
        assert.deepEqual((await h.post(other)).body, failure("INVALID_FID_OWNER"));
      });

      it("USERNAME_RESERVED: a reserved name, including the brand-built ones", async () => {
        for (const name of ["google", "service", "service-client", "vitalik"]) {
          assert.deepEqual((await h.register(bob, name)).body, failure("USERNAME_RESERVED"), name);
        }
      });

      it("INVALID_SIGNATURE: signed by someone else, garbage, or cut short", async () => {
        const stranger = privateKeyToAccount(generatePrivateKey());
        const forged = await h.body(stranger, {
          name: "bobby",
          from: 0,
          to: bob.fid,
          fid: bob.fid,
          owner: bob.account.address,
        });
        assert.deepEqual((await h.post(forged)).body, failure("INVALID_SIGNATURE"));
        const honest = await h.body(bob.account, { name: "bobby", from: 0, to: bob.fid, fid: bob.fid });
        for (const signature of [`0x${"ab".repeat(65)}`, "0x1234", "0x", `0x${"00".repeat(65)}`]) {
          assert.deepEqual(
            (await h.post({ ...honest, signature })).body,
            failure("INVALID_SIGNATURE"),
            signature,
          );
        }
        // Signed for another name than the one asked for.
        assert.deepEqual((await h.post({ ...honest, name: "bobby2" })).body, failure("INVALID_SIGNATURE"));
      });

      it("INVALID_USERNAME: outside ^[a-z0-9][a-z0-9-]{0,15}$", async () => {
        for (const name of ["Bob", "-bob", "b".repeat(17), "", "bob.eth", "bob_1", "bób"]) {
          assert.deepEqual((await h.register(bob, name)).body, failure("INVALID_USERNAME"), name);
        }
        for (const name of ["b".repeat(16), "bob-", "b--b", "0"]) {
          const user = await h.user();
          assert.equal((await h.register(user, name)).status, 200, name);
        }
      });

      it("TOO_MANY_NAMES: a fid that already holds a name, or the same name for a new owner", async () => {
        assert.deepEqual((await h.register(alice, "alice2")).body, failure("TOO_MANY_NAMES"));
      });

      it("INVALID_TIMESTAMP: more than 10 minutes off", async () => {
        assert.deepEqual((await h.register(bob, "bobby", h.now + 601)).body, failure("INVALID_TIMESTAMP"));
        assert.deepEqual((await h.register(bob, "bobby", h.now - 601)).body, failure("INVALID_TIMESTAMP"));
      });

      it("USERNAME_TAKEN: a held name, and it wins over THROTTLED", async () => {
        assert.deepEqual((await h.register(bob, "alice")).body, failure("USERNAME_TAKEN"));
      });

      it("USERNAME_NOT_FOUND: unregistering a name nobody holds", async () => {
        assert.deepEqual((await h.unregister(bob, "nobodys")).body, failure("USERNAME_NOT_FOUND"));
      });

      it("THROTTLED: releasing a name within 28 days of getting it", async () => {
        assert.deepEqual((await h.unregister(alice, "alice")).body, failure("THROTTLED"));
      });

      it("a transfer from a fid to itself, which no code fits, as a plain 400", async () => {
        const body = await h.body(bob.account, { name: "bobby", from: bob.fid, to: bob.fid, fid: bob.fid });
        const reply = await h.post(body);
        assert.equal(reply.status, 400);
        assert.deepEqual(reply.body, {
          error: "from and to are the same fid: a transfer moves a name between two fids",
        });
      });

      it("a transfer from fid 0 to fid 0 as a plain 400, writing nothing", async () => {
        const zero = await h.body(privateKeyToAccount(generatePrivateKey()), {
          name: "zerozero",
          from: 0,
          to: 0,
        });
        assert.equal((await h.post(zero)).status, 400);
        assert.equal(((await h.get("/transfers?name=zerozero")).body.transfers as unknown[]).length, 0);
      });
    });

    describe("releasing a name", () => {
      let carol: User;

      before(async () => {
        carol = await h.user();
        const registered = await h.register(carol, "carol");
        assert.equal(registered.status, 200);
      });

      it("refuses to unregister a name held for less than 28 days", async () => {
        h.clock += 28 * DAY * 1000 - 10_000;
        assert.deepEqual((await h.unregister(carol, "carol")).body, failure("THROTTLED"));
      });

      it("unregisters a name after 28 days with a transfer to fid 0", async () => {
        h.clock += 10_000;
        const burned = await h.unregister(carol, "carol");
        assert.equal(burned.status, 200);
        assert.deepEqual(
          { ...(burned.body.transfer as object), id: 0, server_signature: "", user_signature: "" },
          {
            id: 0,
            timestamp: h.now,
            username: "carol",
            owner: carol.account.address.toLowerCase(),
            from: carol.fid,
            to: 0,
            server_signature: "",
            user_signature: "",
          },
        );
        assert.deepEqual(await h.get("/transfers/current?name=carol").then((r) => [r.status, r.body]), [
          404,
          { error: "No transfer found" },
        ]);
        assert.deepEqual(await h.get(`/transfers/current?fid=${carol.fid}`).then((r) => [r.status, r.body]), [
          404,
          { error: "Could not resolve current name" },
        ]);
      });

      it("answers USERNAME_NOT_FOUND to unregistering a released name again", async () => {
        assert.deepEqual((await h.unregister(carol, "carol")).body, failure("USERNAME_NOT_FOUND"));
      });

      it("throttles a released name for everyone else, refusing a timestamp before its release first", async () => {
        assert.deepEqual((await h.register(bob, "carol")).body, failure("THROTTLED"));
        assert.deepEqual((await h.register(bob, "carol", h.now - 1)).body, failure("INVALID_TIMESTAMP"));
      });

      it("lets a fid that released its name take a new one at once", async () => {
        // A new name has no history, so "change name" = release the old one, take a new one at once.
        assert.equal((await h.register(carol, "carol-new")).status, 200);
      });

      it("gives a released name to another fid 28 days after its release", async () => {
        h.clock += 28 * DAY * 1000;
        assert.equal((await h.register(bob, "carol")).status, 200);
        assert.equal((await h.get(`/transfers/current?name=carol`)).body.transfer && bob.fid, bob.fid);
      });
    });

    describe("admins", () => {
      // The reference's form: the admin key signs the plain claim (name, timestamp, owner).
      const admin = () => h.admin;

      let dave: User;
      let erin: User;

      it("transfer a name between fids, without the throttle", async () => {
        dave = await h.user();
        erin = await h.user();
        assert.equal((await h.register(dave, "dave")).status, 200);
        const owner = erin.account.address;
        const body = await h.body(admin(), {
          name: "dave",
          from: dave.fid,
          to: erin.fid,
          fid: ADMIN_FID,
          owner,
        });
        const reply = await h.post(body);
        assert.equal(reply.status, 200);
        const transfer = reply.body.transfer as Record<string, unknown>;
        assert.deepEqual(
          [transfer.from, transfer.to, transfer.owner],
          [dave.fid, erin.fid, owner.toLowerCase()],
        );
        assert.equal(
          ((await h.get(`/transfers/current?fid=${erin.fid}`)).body.transfer as { username: string })
            .username,
          "dave",
        );
        assert.equal((await h.get(`/transfers/current?fid=${dave.fid}`)).status, 404);
      });

      it("cannot move a name again from the fid that held it before", async () => {
        const nameless = await h.user();
        const again = await h.body(admin(), {
          name: "dave",
          from: dave.fid,
          to: nameless.fid,
          fid: ADMIN_FID,
        });
        assert.deepEqual((await h.post(again)).body, failure("USERNAME_TAKEN"));
      });

      it("cannot give a second name to a fid", async () => {
        const second = await h.body(admin(), { name: "dave", from: erin.fid, to: alice.fid, fid: ADMIN_FID });
        assert.deepEqual((await h.post(second)).body, failure("TOO_MANY_NAMES"));
      });

      let frank: User;
      let grace: User;

      it("register reserved names", async () => {
        frank = await h.user();
        const body = await h.body(admin(), {
          name: "google",
          from: 0,
          to: frank.fid,
          fid: ADMIN_FID,
          owner: frank.account.address,
        });
        assert.equal((await h.post(body)).status, 200);
      });

      it("need their own signature", async () => {
        grace = await h.user();
        const forged = await h.body(frank.account, { name: "apple", from: 0, to: grace.fid, fid: ADMIN_FID });
        assert.deepEqual((await h.post(forged)).body, failure("INVALID_SIGNATURE"));
      });

      it("are held to the 10-minute timestamp window", async () => {
        const late = await h.body(admin(), {
          name: "apple",
          from: 0,
          to: grace.fid,
          fid: ADMIN_FID,
          timestamp: h.now - 700,
        });
        assert.deepEqual((await h.post(late)).body, failure("INVALID_TIMESTAMP"));
      });

      it("are held to the name rules", async () => {
        const bad = await h.body(admin(), { name: "Apple", from: 0, to: grace.fid, fid: ADMIN_FID });
        assert.deepEqual((await h.post(bad)).body, failure("INVALID_USERNAME"));
      });
    });
  });
}
