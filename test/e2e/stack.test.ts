/**
 * The whole stack as `castnet start` composes it, driven over HTTP the way an app developer would:
 * accounts from `castnet account create`, a name registered at the registry, messages built and signed
 * by the reference client library and submitted to the hub, and the signed-key-request flow ending
 * with a cast that the hub accepts from the newly approved key.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import { privateKeyToAccount } from "viem/accounts";
import { createAccount, type AccountDetails } from "../../src/stack/account.js";
import { approveKeyRequest } from "../../src/wallet/keyRequestApproval.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { createLogger } from "../../src/http/index.js";
import { testEngines } from "../support/databases.js";
import { FREE_PORTS } from "../support/ports.js";

const MAINNET = core.FarcasterNetwork.MAINNET;

function bytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.replace(/^0x/, ""), "hex"));
}

function unwrap<T>(result: { isOk(): boolean; _unsafeUnwrap(): T; _unsafeUnwrapErr(): unknown }): T {
  if (!result.isOk()) throw new Error(String(result._unsafeUnwrapErr()));
  return result._unsafeUnwrap();
}

/** A cast by `fid`, built and signed by the reference library as an app would. */
async function castBy(fid: number, signer: core.Signer, text: string): Promise<core.Message> {
  const body = {
    text,
    embeds: [],
    embedsDeprecated: [],
    mentions: [],
    mentionsPositions: [],
    type: core.CastType.CAST,
  };
  return unwrap(await core.makeCastAdd(body, { fid, network: MAINNET }, signer));
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const engine of await testEngines()) {
  describe(`the whole stack on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: RunningStack;
    let dataDir: string;
    let drop: () => Promise<void>;
    let url: Record<"registry" | "hub" | "api" | "chain", string>;

    const submit = async (message: core.Message) =>
      fetch(`${url.hub}/v1/submitMessage`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: core.Message.encode(message).finish(),
      });

    before(async () => {
      const created = await engine.create();
      drop = created.drop;
      dataDir = mkdtempSync(join(tmpdir(), "castnet-e2e-"));
      const env: NodeJS.ProcessEnv =
        created.config.engine === "postgres" ? { DATABASE_URL: created.config.url } : {};
      const config = parseStartOptions([...["--data-dir", dataDir, "--block-time", "0"], ...FREE_PORTS], env);
      stack = await startStack(config, createLogger("silent"));
      url = stack.urls as typeof url;
    });

    after(async () => {
      await stack?.close();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    let alice: AccountDetails;
    let app: AccountDetails;

    it("creates accounts that the hub knows as registered fids with an active signer", async () => {
      alice = await createAccount({ chainUrl: url.chain, units: 1 });
      app = await createAccount({ chainUrl: url.chain, units: 1 });
      assert.equal(app.fid, alice.fid + 1);
      const events = await until("the hub to see alice's signer", async () => {
        const res = await fetch(`${url.hub}/v1/onChainSignersByFid?fid=${alice.fid}`);
        const body = (await res.json()) as { events?: { signerEventBody: { key: string } }[] };
        return res.ok && body.events?.length ? body.events : undefined;
      });
      assert.equal(events[0]!.signerEventBody.key, alice.signerPublicKey);
    });

    it("serves a name registered at the registry as a username proof at the hub", async () => {
      const custody = privateKeyToAccount(alice.custodyPrivateKey);
      const timestamp = Math.floor(Date.now() / 1000);
      const claim = core.makeUserNameProofClaim({ name: "alice", owner: custody.address, timestamp });
      const signature = unwrap(await new core.ViemLocalEip712Signer(custody).signUserNameProofClaim(claim));
      const res = await fetch(`${url.registry}/transfers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "alice",
          from: 0,
          to: alice.fid,
          fid: alice.fid,
          owner: custody.address,
          timestamp,
          signature: `0x${Buffer.from(signature).toString("hex")}`,
        }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      const proof = await until("the hub to merge the fname proof", async () => {
        const r = await fetch(`${url.hub}/v1/userNameProofByName?name=alice`);
        return r.ok ? ((await r.json()) as Record<string, unknown>) : undefined;
      });
      assert.equal(proof.fid, alice.fid);
      assert.equal(proof.type, "USERNAME_TYPE_FNAME");
      assert.equal(proof.owner, custody.address.toLowerCase());
    });

    let aliceSigner: InstanceType<typeof core.NobleEd25519Signer>;
    let castHash: string;

    it("accepts a username signed by the reference library", async () => {
      aliceSigner = new core.NobleEd25519Signer(bytes(alice.signerPrivateKey));
      const username = unwrap(
        await core.makeUserDataAdd(
          { type: core.UserDataType.USERNAME, value: "alice" },
          { fid: alice.fid, network: MAINNET },
          aliceSigner,
        ),
      );
      const r1 = await submit(username);
      assert.equal(r1.status, 200, await r1.clone().text());
    });

    it("accepts a cast signed by the reference library", async () => {
      const cast = await castBy(alice.fid, aliceSigner, "hello from castnet");
      const r2 = await submit(cast);
      assert.equal(r2.status, 200, await r2.clone().text());
      const accepted = (await r2.json()) as { hash: string; data: { network: string } };
      castHash = `0x${Buffer.from(cast.hash).toString("hex")}`;
      assert.equal(accepted.hash, castHash);
      assert.equal(accepted.data.network, "SOCIAL_NETWORK_MAINNET");
    });

    it("serves an accepted cast back among the fid's casts", async () => {
      const page = (await (await fetch(`${url.hub}/v1/castsByFid?fid=${alice.fid}`)).json()) as {
        messages: { hash: string; data: { castAddBody: { text: string } } }[];
        nextPageToken: string;
      };
      assert.deepEqual(
        page.messages.map((m) => [m.hash, m.data.castAddBody.text]),
        [[castHash, "hello from castnet"]],
      );
      assert.equal(page.nextPageToken, "");
    });

    it("records the account, the name and the messages as hub events", async () => {
      const events = (await (await fetch(`${url.hub}/v1/events?from_event_id=0`)).json()) as {
        events: { type: string }[];
      };
      const types = new Set(events.events.map((e) => e.type));
      for (const type of [
        "HUB_EVENT_TYPE_MERGE_ON_CHAIN_EVENT",
        "HUB_EVENT_TYPE_MERGE_USERNAME_PROOF",
        "HUB_EVENT_TYPE_MERGE_MESSAGE",
      ])
        assert.ok(types.has(type), `${type} in ${[...types].join(", ")}`);
    });

    describe("a signed key request", () => {
      let newKey: InstanceType<typeof core.NobleEd25519Signer>;
      let token: string;

      it("is created pending, with a deeplink", async () => {
        const appCustody = privateKeyToAccount(app.custodyPrivateKey);
        newKey = new core.NobleEd25519Signer(crypto.getRandomValues(new Uint8Array(32)));
        const keyBytes = unwrap(await newKey.getSignerKey());
        const deadline = Math.floor(Date.now() / 1000) + 86_400;
        const signature = unwrap(
          await new core.ViemLocalEip712Signer(appCustody).signKeyRequest({
            requestFid: BigInt(app.fid),
            key: keyBytes,
            deadline: BigInt(deadline),
          }),
        );
        const created = await fetch(`${url.api}/v2/signed-key-requests`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            key: `0x${Buffer.from(keyBytes).toString("hex")}`,
            requestFid: app.fid,
            deadline,
            signature: `0x${Buffer.from(signature).toString("hex")}`,
          }),
        });
        assert.equal(created.status, 200, await created.clone().text());
        const { result } = (await created.json()) as {
          result: { signedKeyRequest: { token: string; state: string; deeplinkUrl: string } };
        };
        assert.equal(result.signedKeyRequest.state, "pending");
        assert.equal(
          result.signedKeyRequest.deeplinkUrl,
          `${url.api}/approve?token=${result.signedKeyRequest.token}`,
        );
        token = result.signedKeyRequest.token;
      });

      it("is approved by the user's custody key", async () => {
        const approved = await approveKeyRequest({
          apiUrl: url.api,
          token,
          fid: alice.fid,
          custodyPrivateKey: alice.custodyPrivateKey,
        });
        assert.ok(["approved", "completed"].includes(approved.state));
        assert.equal(approved.userFid, alice.fid);
      });

      it("completes once the key is on chain", async () => {
        await until("the request to complete", async () => {
          const r = await fetch(`${url.api}/v2/signed-key-request?token=${token}`);
          const body = (await r.json()) as { result: { signedKeyRequest: { state: string } } };
          return body.result.signedKeyRequest.state === "completed" ? true : undefined;
        });
      });

      it("lets the hub accept casts from the new key", async () => {
        const cast = await castBy(alice.fid, newKey, "signed by the app's key");
        const response = await until("the hub to accept the new key", async () => {
          const r = await submit(cast);
          return r.status === 200 ? r : undefined;
        });
        assert.equal(((await response.json()) as { data: { fid: number } }).data.fid, alice.fid);
      });
    });

    it("refuses a cast from a key the fid never registered, with the reference error", async () => {
      const stranger = new core.NobleEd25519Signer(crypto.getRandomValues(new Uint8Array(32)));
      const cast = await castBy(alice.fid, stranger, "not mine");
      const r = await submit(cast);
      assert.equal(r.status, 400);
      const body = (await r.json()) as { errCode: string; details: string };
      assert.equal(body.errCode, "bad_request.unknown_signer");
    });
  });
}
