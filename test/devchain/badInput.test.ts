import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { InjectOptions } from "fastify";
import { bytesToHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type Devchain, createDevchain } from "../../src/devchain/index.js";
import { createLogger } from "../../src/http/index.js";
import { generateEd25519KeyPair } from "../../src/protocol/ed25519.js";
import { testEngines } from "../support/databases.js";

const logger = createLogger("silent");
const ADMIN_TOKEN = "operator-token-for-tests";

function newKey(): Hex {
  return bytesToHex(generateEd25519KeyPair().publicKey);
}

function newAddress(): Hex {
  return privateKeyToAccount(generatePrivateKey()).address;
}

/** Flips the case of the first letter in an EIP-55 address, which breaks its checksum. */
function badChecksum(address: Hex): string {
  const index = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address[index]!;
  const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  return address.slice(0, index) + flipped + address.slice(index + 1);
}

interface Snapshot {
  latest: number;
  events: number;
  account: unknown;
}

for (const engine of await testEngines()) {
  describe(`devchain refuses bad input on ${engine.engine}`, { skip: engine.skip }, () => {
    let drop: () => Promise<void>;
    let open: Devchain;
    let guarded: Devchain;
    const custody = newAddress();
    const key = newKey();

    before(async () => {
      const first = await engine.create();
      const second = await engine.create();
      drop = async () => {
        await first.drop();
        await second.drop();
      };
      open = await createDevchain({ database: first.config, logger, blockTimeSeconds: 0 });
      guarded = await createDevchain({
        database: second.config,
        logger,
        blockTimeSeconds: 0,
        adminToken: ADMIN_TOKEN,
      });
      await open.chain.register({ custody });
      await open.chain.addKey({ fid: 1, key });
    });
    after(async () => {
      await open?.close();
      await guarded?.close();
      await drop?.();
    });

    async function snapshot(devchain: Devchain): Promise<Snapshot> {
      return {
        latest: await devchain.chain.latestBlockNumber(),
        events: (await devchain.chain.eventsFromBlock(0, 1000)).length,
        account: await devchain.chain.getAccount(1),
      };
    }

    /** Sends the request, expects a 4xx in the devchain's error shape, and checks nothing changed. */
    async function refused(devchain: Devchain, request: InjectOptions, status: number, code: string) {
      const before = await snapshot(devchain);
      const response = await devchain.app.inject(request);
      const label = `${request.method ?? "GET"} ${request.url as string}`;
      assert.equal(response.statusCode, status, `${label}: ${response.body}`);
      assert.match(response.headers["content-type"] as string, /^application\/json/);
      const body = response.json() as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ["error", "message"], label);
      assert.equal(body.error, code, `${label}: ${response.body}`);
      assert.ok(typeof body.message === "string" && body.message.length > 10, label);
      assert.deepEqual(await snapshot(devchain), before, `${label} must not write anything`);
      return body.message as string;
    }

    it("refuses malformed or unacceptable bodies", async () => {
      const json = { "content-type": "application/json" };
      assert.equal(
        await refused(
          open,
          { method: "POST", url: "/v1/fids", headers: json, payload: "{custody:" },
          400,
          "bad_request",
        ),
        "request body is not valid JSON",
      );
      await refused(
        open,
        { method: "POST", url: "/v1/fids", headers: json, payload: "" },
        400,
        "bad_request",
      );
      await refused(
        open,
        { method: "POST", url: "/v1/fids", headers: json, payload: "[]" },
        400,
        "bad_request",
      );
      await refused(
        open,
        {
          method: "POST",
          url: "/v1/fids",
          headers: { "content-type": "application/xml" },
          payload: "<fid/>",
        },
        415,
        "bad_request",
      );
      await refused(
        open,
        { method: "POST", url: "/v1/fids", payload: { custody: newAddress(), padding: "x".repeat(70_000) } },
        413,
        "bad_request",
      );
      assert.equal(
        await refused(open, { method: "POST", url: "/v1/fids", payload: {} }, 400, "bad_request"),
        'field "custody" is required',
      );
      assert.equal(
        await refused(
          open,
          { method: "POST", url: "/v1/fids", payload: { custody: newAddress(), extra: 1 } },
          400,
          "bad_request",
        ),
        'field "extra" is not allowed',
      );
      await refused(
        open,
        { method: "POST", url: "/v1/fids", payload: { custody: 12345 } },
        400,
        "bad_request",
      );
    });

    it("refuses bad addresses", async () => {
      for (const bad of [
        "0x1234",
        "abababababababababababababababababababab",
        "0xzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
        " 0xababababababababababababababababababab",
        badChecksum(newAddress()),
        "",
      ]) {
        await refused(
          open,
          { method: "POST", url: "/v1/fids", payload: { custody: bad } },
          400,
          "invalid_address",
        );
      }
      await refused(
        open,
        { method: "POST", url: "/v1/fids", payload: { custody: `0x${"ab".repeat(21)}` } },
        400,
        "bad_request",
      );
      await refused(
        open,
        {
          method: "POST",
          url: "/v1/fids",
          payload: { custody: newAddress(), recovery: badChecksum(newAddress()) },
        },
        400,
        "invalid_address",
      );
      await refused(
        open,
        {
          method: "POST",
          url: "/v1/fids",
          payload: { custody: "0x0000000000000000000000000000000000000000" },
        },
        400,
        "invalid_address",
      );
      await refused(open, { url: "/v1/addresses/0x12" }, 400, "invalid_address");
    });

    it("refuses a second fid for one custody address, in any letter case", async () => {
      const message = await refused(
        open,
        { method: "POST", url: "/v1/fids", payload: { custody } },
        409,
        "custody_taken",
      );
      assert.equal(message, `${custody} already owns fid 1`);
      await refused(
        open,
        { method: "POST", url: "/v1/fids", payload: { custody: custody.toLowerCase() } },
        409,
        "custody_taken",
      );
    });

    it("answers 404 for a fid it does not know", async () => {
      await refused(open, { url: "/v1/fids/999" }, 404, "unknown_fid");
      await refused(
        open,
        { method: "POST", url: "/v1/fids/999/signers", payload: { key: newKey() } },
        404,
        "unknown_fid",
      );
      await refused(
        open,
        { method: "POST", url: "/v1/fids/999/storage", payload: { units: 1 } },
        404,
        "unknown_fid",
      );
      await refused(open, { method: "DELETE", url: `/v1/fids/999/signers/${key}` }, 404, "unknown_fid");
    });

    it("refuses a fid that is not a positive integer", async () => {
      for (const fid of ["0", "-1", "abc", "1.5", "99999999999999999999", "0x1", "1e3", "%201"]) {
        await refused(open, { url: `/v1/fids/${fid}` }, 400, "bad_request");
        await refused(
          open,
          { method: "POST", url: `/v1/fids/${fid}/storage`, payload: { units: 1 } },
          400,
          "bad_request",
        );
      }
    });

    const add = (payload: unknown) => ({
      method: "POST" as const,
      url: "/v1/fids/1/signers",
      payload: payload as object,
    });

    it("refuses a key that is not 32 bytes of hex", async () => {
      for (const bad of ["0x1234", `0x${"ab".repeat(31)}`, `0x${"zz".repeat(32)}`, "ab".repeat(32), "0x"]) {
        await refused(open, add({ key: bad }), 400, "invalid_key");
      }
      await refused(open, add({ key: `0x${"ab".repeat(40)}` }), 400, "bad_request");
      await refused(open, add({ key: 7 }), 400, "bad_request");
      await refused(open, { method: "DELETE", url: "/v1/fids/1/signers/0x12" }, 400, "invalid_key");
    });

    it("refuses key types other than Ed25519 and auth addresses, and metadata types other than SignedKeyRequest", async () => {
      await refused(open, add({ key: newKey(), keyType: 3 }), 400, "unsupported_key_type");
      await refused(open, add({ key: newKey(), metadataType: 0 }), 400, "unsupported_key_type");
      await refused(open, add({ key: newKey(), keyType: -1 }), 400, "bad_request");
      await refused(open, add({ key: newKey(), metadataType: 256 }), 400, "bad_request");
      await refused(open, add({ key: newKey(), metadata: "0x123" }), 400, "bad_request");
      await refused(open, add({ key: newKey(), metadata: "not hex" }), 400, "bad_request");
    });

    it("refuses a key the fid already has", async () => {
      await refused(open, add({ key }), 409, "key_exists");
    });

    it("refuses to remove a key that is not active", async () => {
      await refused(open, { method: "DELETE", url: `/v1/fids/1/signers/${newKey()}` }, 409, "key_not_active");
    });

    it("never removes or adds a removed key again", async () => {
      const removable = newKey();
      await open.chain.addKey({ fid: 1, key: removable });
      await open.chain.removeKey(1, removable);
      await refused(
        open,
        { method: "DELETE", url: `/v1/fids/1/signers/${removable}` },
        409,
        "key_not_active",
      );
      await refused(open, add({ key: removable }), 409, "key_removed");
    });

    it("refuses storage units out of range or of the wrong type", async () => {
      for (const units of [0, -1, 1001, 1.5, 2 ** 53, "3", null, true]) {
        await refused(
          open,
          { method: "POST", url: "/v1/fids/1/storage", payload: { units } },
          400,
          "bad_request",
        );
      }
    });

    it("refuses bad query parameters", async () => {
      for (const query of [
        "from_block=-1",
        "from_block=abc",
        "limit=0",
        "limit=1001",
        "from_block=1&page=2",
      ]) {
        await refused(open, { url: `/v1/events?${query}` }, 400, "bad_request");
      }
      await refused(
        open,
        { method: "POST", url: "/v1/fids?wait=maybe", payload: { custody: newAddress() } },
        400,
        "bad_request",
      );
      await refused(open, { url: "/v1/transactions/0x1234" }, 400, "bad_request");
    });

    it("answers 404 for unknown transactions, addresses and routes", async () => {
      await refused(open, { url: `/v1/transactions/0x${"00".repeat(32)}` }, 404, "unknown_transaction");
      await refused(open, { url: `/v1/addresses/${newAddress()}` }, 404, "unknown_address");
      await refused(open, { url: "/v1/nothing" }, 404, "not_found");
      await refused(open, { method: "PUT", url: "/v1/fids" }, 404, "not_found");
    });

    it("accepts operator writes only from loopback addresses when no admin token is set", async () => {
      const remote = "203.0.113.7";
      const message = await refused(
        open,
        { method: "POST", url: "/v1/fids", remoteAddress: remote, payload: { custody: newAddress() } },
        403,
        "forbidden",
      );
      assert.match(message, /loopback/);
      await refused(
        open,
        { method: "POST", url: "/v1/fids/1/storage", remoteAddress: remote, payload: { units: 1 } },
        403,
        "forbidden",
      );
      await refused(
        open,
        { method: "DELETE", url: `/v1/fids/1/signers/${key}`, remoteAddress: remote },
        403,
        "forbidden",
      );
      await refused(
        open,
        { method: "POST", url: "/v1/fids/1/signers", remoteAddress: remote, payload: { key: newKey() } },
        403,
        "forbidden",
      );
      // Reads stay open to anyone; loopback, IPv4 or IPv6, may write.
      assert.equal((await open.app.inject({ url: "/v1/fids/1", remoteAddress: remote })).statusCode, 200);
      for (const loopback of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
        const response = await open.app.inject({
          method: "POST",
          url: "/v1/fids",
          remoteAddress: loopback,
          payload: { custody: newAddress() },
        });
        assert.equal(response.statusCode, 200, loopback);
      }
    });

    it("needs the admin token as a Bearer token, from anywhere, when one is set", async () => {
      const write = (headers: Record<string, string>, remoteAddress: string) => ({
        method: "POST" as const,
        url: "/v1/fids",
        remoteAddress,
        headers,
        payload: { custody: newAddress() },
      });
      for (const remoteAddress of ["127.0.0.1", "198.51.100.4"]) {
        await refused(guarded, write({}, remoteAddress), 401, "unauthorized");
        await refused(guarded, write({ authorization: "Bearer wrong" }, remoteAddress), 401, "unauthorized");
        await refused(guarded, write({ authorization: ADMIN_TOKEN }, remoteAddress), 401, "unauthorized");
        await refused(
          guarded,
          write({ authorization: `Bearer ${ADMIN_TOKEN}x` }, remoteAddress),
          401,
          "unauthorized",
        );
      }
      const denied = await guarded.app.inject(write({}, "198.51.100.4"));
      assert.equal(denied.headers["www-authenticate"], 'Bearer realm="castnet"');
      const allowed = await guarded.app.inject(
        write({ authorization: `Bearer ${ADMIN_TOKEN}` }, "198.51.100.4"),
      );
      assert.equal(allowed.statusCode, 200);
      assert.equal((allowed.json() as { fid: number }).fid, 1);
    });
  });
}
