/**
 * Attacks on the name registry, each spoken over HTTP to a real registry on real databases: replaying
 * published signatures as admin requests, spending someone else's rate limit, and flooding the
 * CCIP-read gateway (which signs afresh on every request) from one client or one IPv6 /64.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type Address,
  type Hex,
  bytesToHex,
  concat,
  encodeFunctionData,
  parseAbi,
  stringToBytes,
} from "viem";
import { signAdminTransfer } from "../../src/protocol/eip712/adminTransfer.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { type Registry, type RegistryOptions, createRegistry } from "../../src/registry/index.js";
import { testEngines } from "../support/databases.js";
import type { Transfer } from "../../src/interfaces/transferFeed.js";
import {
  ADMIN_FID,
  Harness,
  PROOF_CONTRACT,
  type User,
  failure,
  proofTypedData,
} from "../registry/support.js";
import { testLogger as logger } from "../support/stack.js";

const HOUR_MS = 60 * 60 * 1000;
const SECOND_ADMIN_FID = 14046;
const usedOnce = (name: string) => ({
  error: "Validation failure",
  code: "INVALID_SIGNATURE",
  message: `this admin signature was already used for a transfer of ${name}; an admin signature authorises one transfer`,
});

/** The bound admin authorisation, written out as an admin's client would (not taken from castnet). */
function adminTransferTypedData(transfer: {
  name: string;
  from: number;
  to: number;
  fid: number;
  owner: Address;
  timestamp: number;
}) {
  return {
    domain: {
      name: "castnet name registry admin",
      version: "1",
      chainId: 1,
      verifyingContract: PROOF_CONTRACT,
    },
    types: {
      AdminTransfer: [
        { name: "name", type: "string" },
        { name: "from", type: "uint256" },
        { name: "to", type: "uint256" },
        { name: "fid", type: "uint256" },
        { name: "owner", type: "address" },
        { name: "timestamp", type: "uint256" },
      ],
    },
    primaryType: "AdminTransfer" as const,
    message: {
      name: transfer.name,
      from: BigInt(transfer.from),
      to: BigInt(transfer.to),
      fid: BigInt(transfer.fid),
      owner: transfer.owner,
      timestamp: BigInt(transfer.timestamp),
    },
  };
}

const RESOLVER = parseAbi([
  "function resolve(bytes name, bytes data) view returns (string name, uint256 timestamp, address owner, bytes sig)",
  "function multicall(bytes[] data) view returns (bytes[] results)",
]);

function resolveCall(label: string): Hex {
  const bytes = stringToBytes(label);
  const name = concat([bytesToHex(new Uint8Array([bytes.length])), bytesToHex(bytes), "0x00"]);
  return encodeFunctionData({ abi: RESOLVER, functionName: "resolve", args: [name, "0x"] });
}

for (const engine of await testEngines()) {
  describe(`registry attacks on ${engine.engine}`, { skip: engine.skip }, () => {
    const h = new Harness(engine);
    const admin = h.admin;
    let withAdmin: string;

    before(async () => {
      // The default configuration, as `castnet start` runs it.
      await h.start();
      // A second admin fid with the same key: a signature for one admin fid must not serve the other.
      const adminFids = { [ADMIN_FID]: admin.address, [SECOND_ADMIN_FID]: admin.address };
      withAdmin = (await h.startRegistry({ adminFids })).url;
    });
    after(() => h.stop());

    const registered = async (user: User, name: string, url = h.url): Promise<Transfer> => {
      const body = await h.body(user.account, { name, from: 0, to: user.fid, fid: user.fid });
      const reply = await h.post(body, url);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.transfer as Transfer;
    };

    /** A published transfer's signature, sent back as an admin request that moves the name elsewhere. */
    const replayed = (
      transfer: Transfer,
      signature: Hex,
      fields: { from: number; to: number; fid?: number },
    ) => ({
      name: transfer.username,
      owner: transfer.owner,
      timestamp: transfer.timestamp,
      signature,
      ...fields,
    });

    const current = async (name: string, url = h.url) =>
      (await h.get(`/transfers/current?name=${name}`, url)).body.transfer as Transfer;

    describe("admin requests", () => {
      it("a published server signature replayed as fid 14045 moves or burns nothing: there is no default admin", async () => {
        const victim = await h.user();
        const attacker = await h.user();
        const transfer = await registered(victim, "victim1");
        const move = replayed(transfer, transfer.server_signature, {
          from: victim.fid,
          to: attacker.fid,
          fid: ADMIN_FID,
        });
        assert.deepEqual(await h.post(move).then((r) => [r.status, r.body]), [400, failure("UNAUTHORIZED")]);
        const burn = replayed(transfer, transfer.server_signature, {
          from: victim.fid,
          to: 0,
          fid: ADMIN_FID,
        });
        assert.deepEqual(await h.post(burn).then((r) => [r.status, r.body]), [400, failure("UNAUTHORIZED")]);
        // Without a fid it is a user request, and the server's signature is not the owner's.
        const asUser = replayed(transfer, transfer.server_signature, { from: victim.fid, to: 0 });
        assert.deepEqual(await h.post(asUser).then((r) => [r.status, r.body]), [
          400,
          failure("INVALID_SIGNATURE"),
        ]);
        assert.deepEqual(await current("victim1"), transfer);
      });

      it("with an admin key configured, neither the server's nor the user's published signature is the admin's", async () => {
        const victim = await h.user();
        const attacker = await h.user();
        const transfer = await registered(victim, "victim2", withAdmin);
        for (const signature of [transfer.server_signature, transfer.user_signature]) {
          for (const to of [attacker.fid, 0]) {
            const body = replayed(transfer, signature, { from: victim.fid, to, fid: ADMIN_FID });
            assert.deepEqual(await h.post(body, withAdmin).then((r) => [r.status, r.body]), [
              400,
              failure("INVALID_SIGNATURE"),
            ]);
          }
        }
        assert.deepEqual(await current("victim2", withAdmin), transfer);
      });

      it("a bound AdminTransfer moves a name once; its signature moves it nowhere else", async () => {
        const holder = await h.user();
        const target = await h.user();
        const attacker = await h.user();
        await registered(holder, "bound1", withAdmin);
        const fields = {
          name: "bound1",
          from: holder.fid,
          to: target.fid,
          fid: ADMIN_FID,
          owner: target.account.address,
          timestamp: h.now,
        };
        const signature = await admin.signTypedData(adminTransferTypedData(fields));
        // castnet's client function signs the same typed data.
        assert.equal(await signAdminTransfer(admin, fields), signature);
        const otherAdmin = { ...fields, fid: SECOND_ADMIN_FID, signature };
        assert.deepEqual(await h.post(otherAdmin, withAdmin).then((r) => [r.status, r.body]), [
          400,
          failure("INVALID_SIGNATURE"),
        ]);
        const moved = await h.post({ ...fields, signature }, withAdmin);
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        const transfer = moved.body.transfer as Transfer;
        assert.deepEqual(
          [transfer.from, transfer.to, transfer.user_signature],
          [holder.fid, target.fid, signature],
        );

        for (const to of [attacker.fid, 0]) {
          const body = { ...fields, from: target.fid, to, signature };
          assert.deepEqual(await h.post(body, withAdmin).then((r) => [r.status, r.body]), [
            400,
            failure("INVALID_SIGNATURE"),
          ]);
        }
        // The very same request again is spent too, rather than run a second time.
        assert.deepEqual(await h.post({ ...fields, signature }, withAdmin).then((r) => [r.status, r.body]), [
          400,
          usedOnce("bound1"),
        ]);
        assert.deepEqual(await current("bound1", withAdmin), transfer);
      });

      it("a reference-style admin claim authorises one transfer and is refused when replayed", async () => {
        const holder = await h.user();
        const target = await h.user();
        const attacker = await h.user();
        await registered(holder, "claim1", withAdmin);
        const claim = { name: "claim1", timestamp: h.now, owner: target.account.address };
        const signature = await admin.signTypedData(proofTypedData(claim));
        const moved = await h.post(
          { ...claim, from: holder.fid, to: target.fid, fid: ADMIN_FID, signature },
          withAdmin,
        );
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        const transfer = moved.body.transfer as Transfer;

        for (const to of [attacker.fid, 0]) {
          const body = replayed(transfer, transfer.user_signature, { from: target.fid, to, fid: ADMIN_FID });
          assert.deepEqual(await h.post(body, withAdmin).then((r) => [r.status, r.body]), [
            400,
            usedOnce("claim1"),
          ]);
        }
        assert.deepEqual(await current("claim1", withAdmin), transfer);
      });

      it("refuses to start when an admin signs with the server key", async () => {
        await assert.rejects(
          createRegistry({
            database: await h.database(),
            logger,
            chain: h.devchain.chain,
            naming: NEUTRAL,
            serverPrivateKey: h.serverKey,
            adminFids: { 7: admin.address, [ADMIN_FID]: h.server.address.toLowerCase() as Address },
          }),
          new RegExp(
            `^Error: admin fid ${ADMIN_FID} signs with the registry's server key \\(${h.server.address}\\): ` +
              "the server publishes a signature of every transfer, so an admin key must be a key of its own$",
          ),
        );
      });
    });

    describe("rate limits", () => {
      // One registry with the default transfer limits, one with a tight per-IP limit.
      let limited: Registry;
      let tight: Registry;

      before(async () => {
        const ccipRateLimit = { perClientPerHour: 3 };
        const options: Partial<RegistryOptions> = { rateLimit: { perFidPerHour: 30, perIpPerHour: 600 } };
        limited = (await h.startRegistry({ ...options, ccipRateLimit })).registry;
        tight = (await h.startRegistry({ rateLimit: { perFidPerHour: 30, perIpPerHour: 2 } })).registry;
      });

      const inject = (
        remoteAddress: string,
        method: "GET" | "POST",
        url: string,
        payload?: object,
        registry = limited,
      ) =>
        registry.app
          .inject({ method, url, payload, remoteAddress })
          .then((r) => ({ status: r.statusCode, retryAfter: r.headers["retry-after"], body: r.json() }));

      it("unsigned junk naming a victim does not spend the victim's per-fid limit", async () => {
        const victim = await h.user();
        const junk = {
          name: "victim3",
          from: 0,
          to: victim.fid,
          fid: victim.fid,
          owner: victim.account.address,
          timestamp: h.now,
          signature: `0x${"11".repeat(65)}`,
        };
        for (let i = 0; i < 40; i++) {
          const reply = await inject("198.51.100.7", "POST", "/transfers", junk);
          assert.deepEqual([reply.status, reply.body], [400, failure("INVALID_SIGNATURE")]);
        }
        const real = await h.body(victim.account, {
          name: "victim3",
          from: 0,
          to: victim.fid,
          fid: victim.fid,
        });
        const reply = await inject("192.0.2.10", "POST", "/transfers", real);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      });

      it("limits the CCIP-read gateway per client, counting every name a multicall resolves", async () => {
        const call = resolveCall("nobody");
        const multicall = encodeFunctionData({
          abi: RESOLVER,
          functionName: "multicall",
          args: [[call, call]],
        });
        assert.equal(
          (await inject("203.0.113.9", "POST", "/ccip/", { sender: PROOF_CONTRACT, data: multicall })).status,
          200,
        );
        assert.equal(
          (await inject("203.0.113.9", "GET", `/ccip/${PROOF_CONTRACT}/${call}.json`)).status,
          200,
        );
        const refused = await inject("203.0.113.9", "GET", `/ccip/${PROOF_CONTRACT}/${call}.json`);
        assert.deepEqual(refused, {
          status: 429,
          retryAfter: "1200",
          body: { message: "too many name lookups from this address; try again in 1200 s" },
        });
        assert.equal(
          (await inject("203.0.113.10", "GET", `/ccip/${PROOF_CONTRACT}/${call}.json`)).status,
          200,
        );
        h.clock += HOUR_MS / 3;
        assert.equal(
          (await inject("203.0.113.9", "GET", `/ccip/${PROOF_CONTRACT}/${call}.json`)).status,
          200,
        );
      });

      it("counts the addresses of one IPv6 /64 as one client", async () => {
        h.clock += HOUR_MS;
        const call = `/ccip/${PROOF_CONTRACT}/${resolveCall("nobody")}.json`;
        for (const address of ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:fffe"]) {
          assert.equal((await inject(address, "GET", call)).status, 200);
        }
        const refused = await inject("2001:db8:1:2:abcd::7", "GET", call);
        assert.deepEqual([refused.status, refused.retryAfter], [429, "1200"]);
        assert.equal((await inject("2001:db8:1:3::1", "GET", call)).status, 200);

        // POST /transfers: two per /64 per hour, spent from two addresses of it.
        const body = { name: "x", from: 0, to: 1, owner: PROOF_CONTRACT, timestamp: h.now, signature: "0x" };
        for (const address of ["2001:db8:5:6::1", "2001:db8:5:6::2"]) {
          const reply = await inject(address, "POST", "/transfers", body, tight);
          assert.deepEqual([reply.status, reply.body], [400, failure("INVALID_FID_OWNER")]);
        }
        const overIp = await inject("2001:db8:5:6:1::1", "POST", "/transfers", body, tight);
        assert.deepEqual(
          [overIp.status, overIp.retryAfter, overIp.body],
          [429, "1800", { error: "too many name requests from this address; try again in 1800 s" }],
        );
        const otherNet = await inject("2001:db8:5:7::1", "POST", "/transfers", body, tight);
        assert.equal(otherNet.status, 400);
      });
    });
  });
}
