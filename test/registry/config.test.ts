import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { httpChainClient } from "../../src/interfaces/chainHttp.js";
import { listen } from "../../src/http/index.js";
import { NEUTRAL } from "../../src/protocol/naming.js";
import { createRegistry } from "../../src/registry/index.js";
import type { DatabaseConfig } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import { testLogger as logger } from "../support/stack.js";
import { ADMIN_FID, Harness, failure } from "./support.js";

const HOUR_MS = 60 * 60 * 1000;

for (const engine of await testEngines()) {
  describe(`registry configuration on ${engine.engine}`, { skip: engine.skip }, () => {
    const h = new Harness(engine);
    const operator = privateKeyToAccount(generatePrivateKey());
    let config: DatabaseConfig;

    before(async () => {
      // No server key: the registry makes one and keeps it in its database.
      await h.start({
        serverPrivateKey: undefined,
        rateLimit: { perFidPerHour: 2, perIpPerHour: 5 },
        reservedNames: ["keepout"],
        adminFids: { 77: operator.address, 78: "" as `0x${string}` },
      });
      config = h.stack.databases.registry;
    });
    after(() => h.stop());

    let signer: string;

    it("generates a server key when none is configured", async () => {
      signer = (await h.get("/signer")).body.signer as string;
      assert.match(signer, /^0x[0-9a-fA-F]{40}$/);
      assert.notEqual(signer, h.server.address);
    });

    it("gives every process on its database the key it generated", async () => {
      const second = await h.startRegistry({ database: config, serverPrivateKey: undefined });
      assert.deepEqual((await h.get("/signer", second.url)).body, { signer });
      await second.registry.close();
      const third = await h.startRegistry({ database: config, serverPrivateKey: undefined });
      assert.equal(await third.registry.feed.signer(), signer);
      await third.registry.close();
    });

    it("limits requests per fid with 429 and Retry-After", async () => {
      const user = await h.user();
      assert.equal((await h.register(user, "Invalid")).status, 400);
      assert.equal((await h.register(user, "Invalid")).status, 400);
      const limited = await h.register(user, "valid");
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.body, {
        error: `too many name requests for fid ${user.fid}; try again in 1800 s`,
      });
      assert.equal(limited.headers.get("retry-after"), "1800");
      // Half an hour refills one request of the fid.
      h.clock += HOUR_MS / 2;
      assert.equal((await h.register(user, "valid")).status, 200);
    });

    it("limits requests per IP with 429 and Retry-After", async () => {
      // The half hour above also made the IP's allowance whole again: 5 requests, then one every 12 minutes.
      const others = [await h.user(), await h.user(), await h.user(), await h.user(), await h.user()];
      for (let i = 0; i < 4; i++) assert.equal((await h.register(others[i]!, `other${i}`)).status, 200);
      const byIp = await h.register(others[4]!, "other4");
      assert.equal(byIp.status, 429);
      assert.deepEqual(byIp.body, { error: "too many name requests from this address; try again in 720 s" });
      assert.equal(byIp.headers.get("retry-after"), "720");
      h.clock += 720_000;
      assert.equal((await h.register(others[4]!, "other4")).status, 200);
    });

    it("reserves the configured names in place of the default list", async () => {
      h.clock += HOUR_MS;
      const user = await h.user();
      assert.deepEqual((await h.register(user, "keepout")).body, failure("USERNAME_RESERVED"));
      // The default list is replaced, not extended.
      assert.equal((await h.register(user, "google")).status, 200);
    });

    it("honours a configured admin", async () => {
      const target = await h.user();
      const byOperator = await h.body(operator, {
        name: "keepout",
        from: 0,
        to: target.fid,
        fid: 77,
        owner: target.account.address,
      });
      assert.equal((await h.post(byOperator)).status, 200);
    });

    it("honours no admin it was not configured with", async () => {
      // Fid 14045 is not an admin unless configured; an admin fid without an address is none either.
      const other = await h.user();
      const asServer = await h.body(other.account, {
        name: "viaserver",
        from: 0,
        to: other.fid,
        fid: ADMIN_FID,
      });
      assert.deepEqual((await h.post(asServer)).body, failure("UNAUTHORIZED"));
      const asBlank = await h.body(other.account, { name: "viablank", from: 0, to: other.fid, fid: 78 });
      assert.deepEqual((await h.post(asBlank)).body, failure("UNAUTHORIZED"));
    });

    let overHttp: Record<string, unknown>;

    it("asks the chain over HTTP when it runs elsewhere", async () => {
      const chainUrl = await listen(h.devchain.app, "devchain", "127.0.0.1", 0);
      const remote = await h.startRegistry({ chain: httpChainClient(chainUrl), rateLimit: false });
      const user = await h.user();
      overHttp = await h.body(user.account, { name: "overhttp", from: 0, to: user.fid, fid: user.fid });
      assert.equal((await h.post(overHttp, remote.url)).status, 200);
    });

    it("refuses owners it cannot check when the chain is unreachable", async () => {
      const unreachable = await h.startRegistry({
        chain: httpChainClient("http://127.0.0.1:9"),
        rateLimit: false,
      });
      assert.deepEqual((await h.post(overHttp, unreachable.url)).body, failure("INVALID_FID_OWNER"));
    });

    it("refuses a bad configuration at start", async () => {
      const options = { database: config, logger, chain: h.devchain.chain, naming: NEUTRAL };
      await assert.rejects(
        createRegistry({ ...options, serverPrivateKey: "0x1234" }),
        /^Error: the registry's server private key is not a 32-byte hex secp256k1 key$/,
      );
      await assert.rejects(
        createRegistry({ ...options, adminFids: { 5: "0xnothex" as `0x${string}` } }),
        /^Error: the address of admin fid 5 is not an address: 0xnothex$/,
      );
      await assert.rejects(
        createRegistry({ ...options, adminFids: { [-1]: operator.address } }),
        /^Error: admin fid -1 is not a positive integer$/,
      );
      await assert.rejects(
        createRegistry({ ...options, rateLimit: { perFidPerHour: 0, perIpPerHour: 600 } }),
        /^Error: a rate limit must be a positive number of requests per hour, not 0$/,
      );
      await assert.rejects(
        createRegistry({ ...options, ccipRateLimit: { perClientPerHour: Number.NaN } }),
        /^Error: a rate limit must be a positive number of requests per hour, not NaN$/,
      );
      await assert.rejects(
        createRegistry({ ...options, ccipVerifyingContract: "0x12" }),
        /^Error: ccipVerifyingContract is not an address: 0x12$/,
      );
    });
  });
}
