import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ViemLocalEip712Signer } from "@farcaster/core";
import { type Hex, encodeAbiParameters, hexToBytes } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { ApprovalTypedData } from "../../src/clientapi/index.js";
import type { ClientApiTables } from "../../src/clientapi/tables.js";
import { KeyRequestError, approveKeyRequest } from "../../src/wallet/keyRequestApproval.js";
import { httpChainClient } from "../../src/interfaces/chainHttp.js";
import { listen } from "../../src/http/index.js";
import { generateEd25519KeyPair } from "../../src/protocol/ed25519.js";
import { type Database, openDatabase } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import { type Harness, type Wallet, call, errorOf, registerWallet, startHarness } from "./support.js";

// Written out here from SPEC B and protocol-wire §7 rather than taken from the code under test.
const VALIDATOR = "0x00000000FC700472606ED4fA22623Acf62c60553";
const KEY_GATEWAY = "0x00000000fC56947c7E7183f8Ca4B62398CaAdf0B";
const SIGNED_KEY_REQUEST_TYPES = {
  SignedKeyRequest: [
    { name: "requestFid", type: "uint256" },
    { name: "key", type: "bytes" },
    { name: "deadline", type: "uint256" },
  ],
} as const;
const METADATA_ABI = [
  {
    type: "tuple",
    components: [
      { name: "requestFid", type: "uint256" },
      { name: "requestSigner", type: "address" },
      { name: "signature", type: "bytes" },
      { name: "deadline", type: "uint256" },
    ],
  },
] as const;
const SPONSOR_COST = 10;

const newKey = (): Hex => `0x${Buffer.from(generateEd25519KeyPair().publicKey).toString("hex")}`;

/** What an app does: sign {requestFid, key, deadline} with its custody key under the validator's domain. */
async function signRequest(app: Wallet, key: Hex, deadline: number): Promise<Hex> {
  return app.account.signTypedData({
    domain: {
      name: "Service SignedKeyRequestValidator",
      version: "1",
      chainId: 10,
      verifyingContract: VALIDATOR,
    },
    types: SIGNED_KEY_REQUEST_TYPES,
    primaryType: "SignedKeyRequest",
    message: { requestFid: BigInt(app.fid), key, deadline: BigInt(deadline) },
  });
}

for (const engine of await testEngines()) {
  describe(`signed key requests on ${engine.engine}`, { skip: engine.skip }, () => {
    let h: Harness;
    let offset = 0;
    const nowSeconds = () => Math.floor((Date.now() + offset) / 1000);
    let app: Wallet;
    let user: Wallet;
    let sponsor: Wallet;
    let db: Database<ClientApiTables>;
    const post = (body: unknown, path = "/v2/signed-key-request") => call(h.url, "POST", path, body);
    const get = (path: string) => call(h.url, "GET", path);
    const rows = async () =>
      (
        await db.db
          .selectFrom("api_signed_key_requests")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n;

    // Each request its own deadline: the same signed body twice is one request.
    let made = 0;
    async function create(overrides: Record<string, unknown> = {}, key = newKey()) {
      const deadline = nowSeconds() + 86_400 + made++;
      const reply = await post({
        key,
        requestFid: app.fid,
        deadline,
        signature: await signRequest(app, key, deadline),
        ...overrides,
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return { ...reply.body.result.signedKeyRequest, deadline };
    }

    async function typedDataFor(token: string, wallet: Wallet): Promise<ApprovalTypedData> {
      const reply = await get(`/v2/signed-key-request/approval?token=${token}&fid=${wallet.fid}`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.result.typedData;
    }

    /** What a wallet does: sign the typed data exactly as served (eth_signTypedData_v4 JSON) and post it. */
    async function approve(token: string, wallet: Wallet, typedData?: ApprovalTypedData) {
      const typed = typedData ?? (await typedDataFor(token, wallet));
      const signature = await wallet.account.signTypedData(typed as never);
      return call(h.url, "POST", "/v2/signed-key-request/approval", {
        token,
        fid: wallet.fid,
        nonce: typed.message.nonce,
        deadline: typed.message.deadline,
        signature,
      });
    }

    before(async () => {
      h = await startHarness(engine, {
        now: () => Date.now() + offset,
        sponsorCost: SPONSOR_COST,
        pollIntervalMs: 50,
      });
      db = openDatabase<ClientApiTables>(h.apiDatabase);
      app = await registerWallet(h.devchain);
      user = await registerWallet(h.devchain);
      sponsor = await registerWallet(h.devchain);
    });
    after(async () => {
      await db?.close();
      await h?.close();
    });

    describe("a new request", () => {
      let key: Hex;
      let deadline: number;
      let signature: Hex;
      let created: Awaited<ReturnType<typeof post>>;
      let request: { token: string };

      it("is created pending", async () => {
        key = newKey();
        deadline = nowSeconds() + 86_400;
        signature = await signRequest(app, key, deadline);
        created = await post({ key, requestFid: app.fid, deadline, signature });
        assert.equal(created.status, 200);
        request = created.body.result.signedKeyRequest;
        assert.match(request.token, /^0x[0-9a-f]{32}$/);
        assert.deepEqual(created.body, {
          result: {
            signedKeyRequest: {
              token: request.token,
              // This client API was started without a URL of its own: the scheme form is all it can give.
              deeplinkUrl: `service://signed-key-request?token=${request.token}`,
              key,
              state: "pending",
              requestFid: app.fid,
              isSponsored: false,
            },
          },
        });
      });

      it("is read back by its token", async () => {
        assert.deepEqual(await get(`/v2/signed-key-request?token=${request.token}`), {
          status: 200,
          body: created.body,
        });
      });

      it("links to the approval page on the part's configured URL, or with --deeplink scheme to the custom scheme", async () => {
        const configured = "http://castnet.test:2282";
        const page = await h.restart({ publicUrl: () => configured });
        const scheme = await h.restart({
          publicUrl: () => configured,
          deeplink: "scheme",
          deeplinkScheme: "myapp",
        });
        try {
          assert.equal(
            (await page.service.keyRequests.get(request.token)).deeplinkUrl,
            `http://castnet.test:2282/approve?token=${request.token}`,
          );
          assert.equal(
            (await scheme.service.keyRequests.get(request.token)).deeplinkUrl,
            `myapp://signed-key-request?token=${request.token}`,
          );
        } finally {
          await Promise.all([page.close(), scheme.close()]);
        }
      });

      it("is the answer to the same signed body on the plural path", async () => {
        // The plural path; requestFid as a string of digits, as some clients send it. The same signed
        // body is the same request.
        const plural = await post(
          { key, requestFid: String(app.fid), deadline, signature },
          "/v2/signed-key-requests",
        );
        assert.deepEqual(plural, created);
      });
    });

    it("accepts a request signed by the reference client library under the reference domain", async () => {
      const key = generateEd25519KeyPair().publicKey;
      const deadline = nowSeconds() + 3600;
      const signed = await new ViemLocalEip712Signer(app.account).signKeyRequest({
        requestFid: BigInt(app.fid),
        key,
        deadline: BigInt(deadline),
      });
      assert.ok(signed.isOk());
      const reply = await post({
        key: `0x${Buffer.from(key).toString("hex")}`,
        requestFid: app.fid,
        deadline,
        signature: `0x${Buffer.from(signed.value).toString("hex")}`,
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    });

    it("refuses every bad request with a clear 4xx and writes nothing", async () => {
      const key = newKey();
      const deadline = nowSeconds() + 86_400;
      const signature = await signRequest(app, key, deadline);
      const good = { key, requestFid: app.fid, deadline, signature };
      const before = await rows();
      const cases: [unknown, number, string][] = [
        [
          { ...good, key: "0x1234" },
          400,
          "key must be a 32-byte Ed25519 public key written as 0x and 64 hex digits",
        ],
        [
          { ...good, key: key.slice(2) },
          400,
          "key must be a 32-byte Ed25519 public key written as 0x and 64 hex digits",
        ],
        [{ ...good, requestFid: 999_999 }, 400, "requestFid 999999 is not a registered fid"],
        [{ ...good, requestFid: 0 }, 400, "requestFid must be a positive integer fid"],
        [{ ...good, requestFid: "12a" }, 400, "requestFid must be a positive integer fid"],
        [
          { ...good, requestFid: user.fid },
          400,
          `signature is not a SignedKeyRequest signature of {requestFid, key, deadline} by the custody address of fid ${user.fid}`,
        ],
        [
          { ...good, deadline: deadline + 1 },
          400,
          `signature is not a SignedKeyRequest signature of {requestFid, key, deadline} by the custody address of fid ${app.fid}`,
        ],
        [
          { ...good, signature: "0xdeadbeef" },
          400,
          "signature must be a 65-byte signature written as 0x and 130 hex digits",
        ],
        [
          { ...good, deadline: deadline * 1000 },
          400,
          `deadline ${deadline * 1000} looks like milliseconds; send Unix seconds (${deadline})`,
        ],
        [
          { ...good, deadline: nowSeconds() - 5 },
          400,
          `deadline ${nowSeconds() - 5} has passed (${new Date((nowSeconds() - 5) * 1000).toISOString()})`,
        ],
        [{ ...good, deadline: String(deadline) }, 400, 'field "deadline" must be integer'],
        [{ ...good, colour: "blue" }, 400, 'field "colour" is not allowed'],
        [{ key, deadline, signature }, 400, 'field "requestFid" is required'],
        [
          { ...good, redirectUrl: "not a url" },
          400,
          "redirectUrl must be an http(s) URL or an app's own scheme (such as myapp://done)",
        ],
        [[good], 400, "request body must be object"],
        ['{"key": ', 400, "request body is not valid JSON"],
      ];
      for (const [body, status, message] of cases) {
        assert.deepEqual(await post(body), { status, body: errorOf(message) }, JSON.stringify(body));
      }
      assert.equal(await rows(), before);
    });

    it("answers an unknown token with 404", async () => {
      assert.deepEqual(await get("/v2/signed-key-request?token=0xabcdef"), {
        status: 404,
        body: errorOf("No signed key request found with token 0xabcdef"),
      });
    });

    it("answers a malformed or missing token with 400", async () => {
      assert.deepEqual(await get("/v2/signed-key-request?token=hello"), {
        status: 400,
        body: errorOf("token must be 0x followed by hex digits"),
      });
      assert.deepEqual(await get("/v2/signed-key-request"), {
        status: 400,
        body: errorOf('query parameter "token" is required'),
      });
    });

    it("goes pending → approved → completed, the key then being an active signer of the user on chain", async () => {
      const request = await create({ redirectUrl: "myapp://signed-in" });
      const reply = await get(`/v2/signed-key-request/approval?token=${request.token}&fid=${user.fid}`);
      assert.equal(reply.status, 200);
      const typed: ApprovalTypedData = reply.body.result.typedData;
      assert.equal(reply.body.result.redirectUrl, "myapp://signed-in");
      const metadata = encodeAbiParameters(METADATA_ABI, [
        {
          requestFid: BigInt(app.fid),
          requestSigner: app.account.address,
          signature: (
            await db.db
              .selectFrom("api_signed_key_requests")
              .select("signature")
              .where("token", "=", request.token)
              .executeTakeFirstOrThrow()
          ).signature as Hex,
          deadline: BigInt(request.deadline),
        },
      ]);
      assert.ok(typed.message.deadline > nowSeconds() && typed.message.deadline <= nowSeconds() + 3600);
      assert.deepEqual(typed, {
        domain: { name: "Service KeyGateway", version: "1", chainId: 10, verifyingContract: KEY_GATEWAY },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
          Add: [
            { name: "owner", type: "address" },
            { name: "keyType", type: "uint32" },
            { name: "key", type: "bytes" },
            { name: "metadataType", type: "uint8" },
            { name: "metadata", type: "bytes" },
            { name: "nonce", type: "uint256" },
            { name: "deadline", type: "uint256" },
          ],
        },
        primaryType: "Add",
        message: {
          owner: user.account.address,
          keyType: 1,
          key: request.key,
          metadataType: 1,
          metadata,
          nonce: 0,
          deadline: typed.message.deadline,
        },
      });

      const approved = await approve(request.token, user, typed);
      assert.deepEqual(approved, {
        status: 200,
        body: { result: { signedKeyRequest: { ...pick(request), state: "approved", userFid: user.fid } } },
      });
      // The block is not mined yet.
      assert.equal(
        (await get(`/v2/signed-key-request?token=${request.token}`)).body.result.signedKeyRequest.state,
        "approved",
      );
      assert.deepEqual(await approve(request.token, user, typed), {
        status: 409,
        body: errorOf(`this signed key request is already approved (approved by fid ${user.fid})`),
      });
      assert.deepEqual(await get(`/v2/signed-key-request/approval?token=${request.token}&fid=${user.fid}`), {
        status: 409,
        body: errorOf(`this signed key request is already approved (approved by fid ${user.fid})`),
      });

      await h.devchain.chain.mine();
      assert.deepEqual(await get(`/v2/signed-key-request?token=${request.token}`), {
        status: 200,
        body: { result: { signedKeyRequest: { ...pick(request), state: "completed", userFid: user.fid } } },
      });
      const account = await h.devchain.chain.getAccount(user.fid);
      assert.deepEqual(account?.signers, [{ key: request.key, keyType: 1, metadataType: 1, metadata }]);
      // The nonce was consumed.
      const next = await create();
      assert.equal((await typedDataFor(next.token, user)).message.nonce, 1);
    });

    it("completes a request in the background once its block is mined, without anyone asking", async () => {
      const request = await create();
      assert.equal((await approve(request.token, user)).status, 200);
      await h.devchain.chain.mine();
      const deadline = Date.now() + 5000;
      let state = "approved";
      while (state !== "completed" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        state = (
          await db.db
            .selectFrom("api_signed_key_requests")
            .select("state")
            .where("token", "=", request.token)
            .executeTakeFirstOrThrow()
        ).state;
      }
      assert.equal(state, "completed");
    });

    it("accepts an approval signed by the reference client library's key gateway signer", async () => {
      const request = await create();
      const typed = await typedDataFor(request.token, user);
      const signed = await new ViemLocalEip712Signer(user.account).signAdd({
        owner: user.account.address,
        keyType: 1,
        key: hexToBytes(typed.message.key),
        metadataType: 1,
        metadata: typed.message.metadata,
        nonce: BigInt(typed.message.nonce),
        deadline: BigInt(typed.message.deadline),
      });
      assert.ok(signed.isOk());
      const reply = await call(h.url, "POST", "/v2/signed-key-request/approval", {
        token: request.token,
        fid: user.fid,
        nonce: typed.message.nonce,
        deadline: typed.message.deadline,
        signature: `0x${Buffer.from(signed.value).toString("hex")}`,
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.body.result.signedKeyRequest.userFid, user.fid);
      await h.devchain.chain.mine();
    });

    it("refuses bad approvals and leaves the request pending and the nonce unused", async () => {
      const request = await create();
      const typed = await typedDataFor(request.token, user);
      const nonce = typed.message.nonce;
      const body = (changes: Record<string, unknown>, signer = user) =>
        signer.account.signTypedData(typed as never).then((signature) => ({
          token: request.token,
          fid: user.fid,
          nonce,
          deadline: typed.message.deadline,
          signature,
          ...changes,
        }));
      const approval = (payload: unknown) => call(h.url, "POST", "/v2/signed-key-request/approval", payload);
      const wrongSigner = `signature is not a key gateway Add signature by the custody address of fid ${user.fid} for this request, nonce and deadline (sign the typed data from GET /v2/signed-key-request/approval as it is)`;
      assert.deepEqual(await approval(await body({}, app)), { status: 400, body: errorOf(wrongSigner) });
      assert.deepEqual(await approval(await body({ deadline: typed.message.deadline + 1 })), {
        status: 400,
        body: errorOf(wrongSigner),
      });
      assert.deepEqual(await approval(await body({ fid: 987_654 })), {
        status: 400,
        body: errorOf("fid 987654 is not a registered fid"),
      });
      assert.deepEqual(await approval(await body({ token: "0x00ff" })), {
        status: 404,
        body: errorOf("No signed key request found with token 0x00ff"),
      });
      assert.deepEqual(await approval(await body({ nonce: -1 })), {
        status: 400,
        body: errorOf('field "nonce" must be >= 0'),
      });
      assert.deepEqual(await approval({ token: request.token }), {
        status: 400,
        body: errorOf('field "fid" is required'),
      });
      // A signature over a nonce that is not the current one (here: the next) verifies but is refused.
      const ahead = { ...typed, message: { ...typed.message, nonce: nonce + 1 } };
      assert.deepEqual(
        await approval({
          ...(await body({})),
          nonce: nonce + 1,
          signature: await user.account.signTypedData(ahead as never),
        }),
        {
          status: 409,
          body: errorOf(
            `nonce ${nonce + 1} is not the current key gateway nonce of ${user.account.address} (it is ${nonce}); fetch the typed data again`,
          ),
        },
      );
      assert.equal(
        (await get(`/v2/signed-key-request?token=${request.token}`)).body.result.signedKeyRequest.state,
        "pending",
      );
      assert.equal((await typedDataFor(request.token, user)).message.nonce, nonce);
      assert.equal((await approve(request.token, user)).status, 200);
      await h.devchain.chain.mine();
    });

    it("refuses the approval when the chain refuses the key add, writing nothing", async () => {
      const key = newKey();
      const first = await create({}, key);
      assert.equal((await approve(first.token, user)).status, 200);
      await h.devchain.chain.mine();
      const again = await create({}, key);
      const nonce = (await typedDataFor(again.token, user)).message.nonce;
      assert.deepEqual(await approve(again.token, user), {
        status: 409,
        body: errorOf(`the chain refused the key add: key ${key} is already added to fid ${user.fid}`),
      });
      assert.equal(
        (await get(`/v2/signed-key-request?token=${again.token}`)).body.result.signedKeyRequest.state,
        "pending",
      );
      assert.equal((await typedDataFor(again.token, user)).message.nonce, nonce);
    });

    it("lets exactly one of two simultaneous approvals through", async () => {
      const other = await registerWallet(h.devchain);
      const request = await create();
      const [a, b] = [await typedDataFor(request.token, user), await typedDataFor(request.token, other)];
      const replies = await Promise.all([approve(request.token, user, a), approve(request.token, other, b)]);
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409]);
      await h.devchain.chain.mine();
      const winner = replies.find((r) => r.status === 200)!.body.result.signedKeyRequest.userFid;
      const account = await h.devchain.chain.getAccount(winner);
      assert.ok(account?.signers.some((s) => s.key === request.key));
      const loser = winner === user.fid ? other.fid : user.fid;
      assert.ok(!(await h.devchain.chain.getAccount(loser))?.signers.some((s) => s.key === request.key));
    });

    it("refuses to approve a request past its deadline", async () => {
      const request = await create();
      offset = (request.deadline + 1) * 1000 - Date.now();
      try {
        const expired = `this signed key request expired at ${new Date(request.deadline * 1000).toISOString()}; the app must make a new one`;
        assert.deepEqual(
          await get(`/v2/signed-key-request/approval?token=${request.token}&fid=${user.fid}`),
          {
            status: 409,
            body: errorOf(expired),
          },
        );
      } finally {
        offset = 0;
      }
    });

    describe("sponsorship", () => {
      const sponsorship = async (signature: Hex, wallet = sponsor) => ({
        sponsorFid: wallet.fid,
        signature: await wallet.account.signMessage({ message: { raw: signature } }),
      });
      const credits = async () =>
        (await call(h.url, "GET", `/v1/admin/sponsors/${sponsor.fid}`)).body.result.sponsor.credits;

      async function sponsoredBody(wallet = sponsor) {
        const key = newKey();
        const deadline = nowSeconds() + 86_400;
        const signature = await signRequest(app, key, deadline);
        return {
          key,
          requestFid: app.fid,
          deadline,
          signature,
          sponsorship: await sponsorship(signature, wallet),
        };
      }

      describe("refusing a sponsorship", () => {
        let rowsBefore: Awaited<ReturnType<typeof rows>>;
        let body: Awaited<ReturnType<typeof sponsoredBody>>;
        let expected: ReturnType<typeof errorOf>;

        before(async () => {
          rowsBefore = await rows();
        });

        it("refuses a sponsor that is not signed up", async () => {
          assert.deepEqual(await post(await sponsoredBody()), {
            status: 400,
            body: errorOf(`fid ${sponsor.fid} is not signed up as a sponsor`),
          });
        });

        it("refuses a sponsor short of credits with 402", async () => {
          await call(h.url, "PUT", `/v1/admin/sponsors/${sponsor.fid}`, { credits: 99 });
          assert.deepEqual(await post(await sponsoredBody()), {
            status: 402,
            body: errorOf(`sponsor fid ${sponsor.fid} has 99 credits; sponsoring needs at least 100`),
          });
        });

        it("refuses a sponsorship signed by someone else than the sponsor", async () => {
          await call(h.url, "PUT", `/v1/admin/sponsors/${sponsor.fid}`, { credits: 100 });
          body = await sponsoredBody();
          const forged = { ...body, sponsorship: await sponsorship(body.signature, user) };
          forged.sponsorship.sponsorFid = sponsor.fid;
          expected = errorOf(
            `sponsorship.signature is not a signature by the custody address of fid ${sponsor.fid} over the raw bytes of the request signature`,
          );
          assert.deepEqual(await post(forged), { status: 400, body: expected });
        });

        it("refuses a sponsorship signed over other bytes than the request signature", async () => {
          const text = {
            ...body,
            sponsorship: {
              sponsorFid: sponsor.fid,
              signature: await sponsor.account.signMessage({ message: body.signature }),
            },
          };
          assert.deepEqual(await post(text), { status: 400, body: expected });
        });

        it("refuses a sponsorship naming an unregistered fid or carrying no signature", async () => {
          assert.deepEqual(
            await post({
              ...body,
              sponsorship: { sponsorFid: 424_242, signature: body.sponsorship.signature },
            }),
            {
              status: 400,
              body: errorOf("sponsorship.sponsorFid 424242 is not a registered fid"),
            },
          );
          assert.deepEqual(await post({ ...body, sponsorship: { sponsorFid: sponsor.fid } }), {
            status: 400,
            body: errorOf('field "sponsorship.signature" is required'),
          });
        });

        it("writes no request for a refused sponsorship", async () => {
          assert.equal(await rows(), rowsBefore);
        });
      });

      it("charges the sponsor once, when the request is approved", async () => {
        await call(h.url, "PUT", `/v1/admin/sponsors/${sponsor.fid}`, { credits: 150 });
        const created = await post(await sponsoredBody());
        assert.equal(created.status, 200);
        const request = created.body.result.signedKeyRequest;
        assert.equal(request.isSponsored, true);
        assert.equal(await credits(), 150);
        assert.equal((await approve(request.token, user)).status, 200);
        assert.equal(await credits(), 150 - SPONSOR_COST);
        await h.devchain.chain.mine();
        assert.equal(
          (await get(`/v2/signed-key-request?token=${request.token}`)).body.result.signedKeyRequest.state,
          "completed",
        );
        await get(`/v2/signed-key-request?token=${request.token}`);
        assert.equal(await credits(), 150 - SPONSOR_COST);
      });

      it("refuses the approval with 402 when the sponsor ran out meanwhile, writing nothing", async () => {
        await call(h.url, "PUT", `/v1/admin/sponsors/${sponsor.fid}`, { credits: 100 });
        const request = (await post(await sponsoredBody())).body.result.signedKeyRequest;
        await call(h.url, "PUT", `/v1/admin/sponsors/${sponsor.fid}`, { credits: SPONSOR_COST - 1 });
        const nonce = (await typedDataFor(request.token, user)).message.nonce;
        assert.deepEqual(await approve(request.token, user), {
          status: 402,
          body: errorOf(
            `sponsor fid ${sponsor.fid} no longer has the ${SPONSOR_COST} credits this approval costs`,
          ),
        });
        assert.equal(await credits(), SPONSOR_COST - 1);
        assert.equal((await typedDataFor(request.token, user)).message.nonce, nonce);
        assert.equal(
          (await get(`/v2/signed-key-request?token=${request.token}`)).body.result.signedKeyRequest.state,
          "pending",
        );
      });
    });

    describe("castnet key-request approve", () => {
      it("approves from the custody key alone", async () => {
        const request = await create();
        const approved = await approveKeyRequest({
          apiUrl: `${h.url}/`,
          token: request.token,
          fid: user.fid,
          custodyPrivateKey: user.privateKey,
        });
        assert.deepEqual(approved, { ...pick(request), state: "approved", userFid: user.fid });
        await h.devchain.chain.mine();
      });

      const stranger = generatePrivateKey();

      it("says so when the key is not the fid's custody key", async () => {
        const request = await create();
        await assert.rejects(
          approveKeyRequest({
            apiUrl: h.url,
            token: request.token,
            fid: user.fid,
            custodyPrivateKey: stranger,
          }),
          new KeyRequestError(
            `the custody key given is for ${privateKeyToAccount(stranger).address}, but fid ${user.fid} is owned by ${user.account.address}`,
          ),
        );
      });

      it("passes on the API's refusal", async () => {
        await assert.rejects(
          approveKeyRequest({ apiUrl: h.url, token: "0x1234", fid: user.fid, custodyPrivateKey: stranger }),
          (error: unknown) =>
            error instanceof KeyRequestError &&
            error.status === 404 &&
            error.message === "No signed key request found with token 0x1234",
        );
      });
    });
  });
}

function pick(request: Record<string, unknown>) {
  const { token, deeplinkUrl, key, state, requestFid, isSponsored } = request;
  return { token, deeplinkUrl, key, state, requestFid, isSponsored };
}

for (const engine of await testEngines()) {
  describe(
    `signed key requests over the devchain's HTTP interface on ${engine.engine}`,
    { skip: engine.skip },
    () => {
      let h: Harness;
      let chainUrl: string;
      let api: Awaited<ReturnType<Harness["restart"]>>;
      let base: string;

      before(async () => {
        h = await startHarness(engine);
        chainUrl = await listen(h.devchain.app, "chain", "127.0.0.1", 0);
        // The client API started alone, with --chain-url.
        api = await h.restart({ chain: httpChainClient(chainUrl) });
        base = await listen(api.app, "api", "127.0.0.1", 0);
      });
      after(() => h?.close());

      let app: Wallet;
      let user: Wallet;
      const key = newKey();
      let made = 0;
      let second: { token: string };

      const make = async () => {
        const deadline = Math.floor(Date.now() / 1000) + 3600 + made++;
        const signature = await signRequest(app, key, deadline);
        return call(base, "POST", "/v2/signed-key-requests", {
          key,
          requestFid: app.fid,
          deadline,
          signature,
        });
      };
      const approve = async (token: string) => {
        const typed = (
          await call(base, "GET", `/v2/signed-key-request/approval?token=${token}&fid=${user.fid}`)
        ).body.result.typedData as ApprovalTypedData;
        return call(base, "POST", "/v2/signed-key-request/approval", {
          token,
          fid: user.fid,
          nonce: typed.message.nonce,
          deadline: typed.message.deadline,
          signature: await user.account.signTypedData(typed as never),
        });
      };

      it("completes a request", async () => {
        app = await registerWallet(h.devchain);
        user = await registerWallet(h.devchain);
        const first = (await make()).body.result.signedKeyRequest;
        assert.equal((await approve(first.token)).body.result.signedKeyRequest.state, "approved");
        await h.devchain.chain.mine();
        assert.equal(
          (await call(base, "GET", `/v2/signed-key-request?token=${first.token}`)).body.result
            .signedKeyRequest.state,
          "completed",
        );
      });

      it("answers 409 when the chain refuses the key add", async () => {
        second = (await make()).body.result.signedKeyRequest;
        assert.deepEqual(await approve(second.token), {
          status: 409,
          body: errorOf(`the chain refused the key add: key ${key} is already added to fid ${user.fid}`),
        });
      });

      it("answers 503 when the chain is unreachable", async () => {
        await h.devchain.app.close();
        assert.deepEqual(await make(), {
          status: 503,
          body: errorOf(
            `the chain is unavailable; could not read or write the custody address of fid ${app.fid}`,
          ),
        });
      });

      it("still answers reads that do not need an unreachable chain", async () => {
        assert.equal((await call(base, "GET", `/v2/signed-key-request?token=${second.token}`)).status, 200);
      });
    },
  );
}
