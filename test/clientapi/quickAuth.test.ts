import assert from "node:assert/strict";
import { generateKeyPairSync, sign } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Actions, Errors, createClient, decodeJwt } from "@farcaster/quick-auth";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { ClientApiTables } from "../../src/clientapi/tables.js";
import { signInMessage } from "../../src/protocol/siwf.js";
import { openDatabase } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import { type Harness, type Wallet, call, errorOf, registerWallet, startHarness } from "./support.js";

const DOMAIN = "example.com";
const URI = "https://example.com/login";
const HOUR = 3600;

/** The signed sign-in message a user's client makes for a mini app at example.com. */
async function signedMessage(signer: PrivateKeyAccount, fid: number, nonce: string) {
  const message = signInMessage({ domain: DOMAIN, uri: URI, nonce, address: signer.address, fid });
  return { message, signature: await signer.signMessage({ message }), domain: DOMAIN };
}

/** A JWT in this server's header and claims, signed by a key the server never had. */
function forgedToken(claims: object, kid: string): string {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${part({ alg: "RS256", typ: "JWT", kid })}.${part(claims)}`;
  return `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
}

const headerOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString());

for (const engine of await testEngines()) {
  describe(`Quick Auth on ${engine.engine}`, { skip: engine.skip }, () => {
    let h: Harness;
    let origin: string;
    let user: Wallet;
    /** Seconds added to the part's clock. */
    let offset = 0;
    const client = () => createClient({ origin });

    before(async () => {
      h = await startHarness(engine, {
        now: () => Date.now() + offset * 1000,
        publicUrl: () => origin,
      });
      origin = h.url;
      user = await registerWallet(h.devchain);
    });
    after(() => h?.close());

    /** The sign-in over HTTP, answer and all. */
    const postSignIn = async (signer: PrivateKeyAccount, nonce: string) =>
      call(origin, "POST", "/verify-siwf", await signedMessage(signer, user.fid, nonce));

    async function token(): Promise<string> {
      const { nonce } = await client().generateNonce();
      return (await client().verifySiwf(await signedMessage(user.account, user.fid, nonce))).token;
    }

    it("signs a user in with the unchanged quick-auth client, whose verifyJwt accepts the token", async () => {
      const { nonce } = await client().generateNonce();
      assert.match(nonce, /^cn[0-9a-f]{32}$/);
      const before = Math.floor(Date.now() / 1000);
      const { token } = await client().verifySiwf(await signedMessage(user.account, user.fid, nonce));
      const payload = await client().verifyJwt({ token, domain: DOMAIN });
      assert.ok(payload.iat >= before && payload.iat <= Math.floor(Date.now() / 1000));
      assert.deepEqual(payload, {
        iat: payload.iat,
        exp: payload.iat + HOUR,
        iss: origin,
        sub: user.fid,
        aud: DOMAIN,
      });
      assert.deepEqual(decodeJwt(token), payload);

      const keys = await call(origin, "GET", "/.well-known/jwks.json");
      assert.equal(keys.status, 200);
      assert.equal(keys.body.keys.length, 1);
      const [jwk] = keys.body.keys;
      assert.deepEqual(Object.keys(jwk), ["kty", "n", "e", "kid", "alg", "use"]);
      assert.deepEqual(
        { ...jwk, n: "" },
        { kty: "RSA", n: "", e: "AQAB", kid: jwk.kid, alg: "RS256", use: "sig" },
      );
      assert.equal(Buffer.from(jwk.n, "base64url").length, 256);
      assert.match(jwk.kid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.deepEqual(headerOf(token), { alg: "RS256", typ: "JWT", kid: jwk.kid });

      // The server's own check of its token, as quick-auth's verifyJwtWithEndpoint calls it.
      assert.deepEqual(await Actions.verifyJwtWithEndpoint({ origin }, { token, domain: DOMAIN }), payload);
      assert.deepEqual((await call(origin, "GET", "/.well-known/openid-configuration")).body, {
        issuer: origin,
        jwks_uri: `${origin}/.well-known/jwks.json`,
      });
    });

    it("keeps the key in the database: another process on it serves the same key set", async () => {
      await token();
      const other = await h.restart();
      assert.deepEqual(
        await other.service.quickAuth.keySet(),
        (await call(origin, "GET", "/.well-known/jwks.json")).body.keys,
      );
      await other.close();
    });

    it("refuses a token for another domain", async () => {
      const issued = await token();
      await assert.rejects(client().verifyJwt({ token: issued, domain: "other.example" }), (error: Error) => {
        assert.ok(error instanceof Errors.InvalidTokenError);
        assert.equal(error.shortMessage, 'unexpected "aud" claim value');
        return true;
      });
      const reply = await call(origin, "GET", `/verify-jwt?token=${issued}&domain=other.example`);
      assert.deepEqual(reply, {
        status: 400,
        body: errorOf("the token is not valid: it is for the domain example.com, not other.example"),
      });
    });

    it("refuses a token signed by another key", async () => {
      const { payload, kid } = await (async () => {
        const issued = await token();
        return { payload: decodeJwt(issued), kid: headerOf(issued).kid };
      })();
      const forged = forgedToken(payload, kid);
      await assert.rejects(client().verifyJwt({ token: forged, domain: DOMAIN }), {
        name: "JWSSignatureVerificationFailed",
      });
      const reply = await call(origin, "GET", `/verify-jwt?token=${forged}&domain=${DOMAIN}`);
      assert.deepEqual(reply, {
        status: 400,
        body: errorOf("the token is not valid: no key of this server's key set signed it"),
      });
    });

    it("refuses a token issued more than an hour ago", async () => {
      offset = -(HOUR + 5);
      let expired: string;
      try {
        expired = await token();
      } finally {
        offset = 0;
      }
      await assert.rejects(client().verifyJwt({ token: expired, domain: DOMAIN }), (error: Error) => {
        assert.ok(error instanceof Errors.InvalidTokenError);
        assert.equal(error.shortMessage, '"exp" claim timestamp check failed');
        return true;
      });
      assert.deepEqual(await call(origin, "GET", `/verify-jwt?token=${expired}&domain=${DOMAIN}`), {
        status: 400,
        body: errorOf("the token is not valid: it has expired"),
      });
    });

    it("takes a nonce once", async () => {
      const { nonce } = await client().generateNonce();
      const signed = await signedMessage(user.account, user.fid, nonce);
      await client().verifySiwf(signed);
      await assert.rejects(client().verifySiwf(signed), (error: Error) => {
        assert.ok(error instanceof Errors.ResponseError);
        assert.equal(error.shortMessage, "Request failed with status 400");
        return true;
      });
      assert.deepEqual(await call(origin, "POST", "/verify-siwf", signed), {
        status: 400,
        body: errorOf(
          `the message's nonce ${nonce} is not a live nonce of this server: it was used already, has expired (nonces last 5 minutes) or was never given; ask POST /nonce for a new one`,
        ),
      });
    });

    it("lets one of two sign-ins sent at once with the same nonce through", async () => {
      const { nonce } = await client().generateNonce();
      const signed = await signedMessage(user.account, user.fid, nonce);
      const replies = await Promise.all([1, 2, 3].map(() => call(origin, "POST", "/verify-siwf", signed)));
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 400, 400]);
    });

    it("refuses a nonce it never gave and one that has expired", async () => {
      const unknown = `cn${"0".repeat(32)}`;
      const reply = await postSignIn(user.account, unknown);
      assert.equal(reply.status, 400);
      assert.match(reply.body.errors[0].message, /nonce cn0{32} is not a live nonce of this server/);

      const { nonce } = await client().generateNonce();
      offset = 301;
      try {
        const late = await postSignIn(user.account, nonce);
        assert.equal(late.status, 400);
        assert.match(late.body.errors[0].message, /is not a live nonce of this server/);
      } finally {
        offset = 0;
      }
    });

    it("refuses a message signed by an address that does not hold the fid, and spends its nonce", async () => {
      const stranger = privateKeyToAccount(generatePrivateKey());
      const { nonce } = await client().generateNonce();
      const reply = await postSignIn(stranger, nonce);
      assert.deepEqual(reply, {
        status: 401,
        body: errorOf(
          `${stranger.address} is neither an auth address nor the custody address of fid ${user.fid}`,
        ),
      });
      const retry = await postSignIn(user.account, nonce);
      assert.equal(retry.status, 400);

      const { nonce: other } = await client().generateNonce();
      const wrongDomain = {
        ...(await signedMessage(user.account, user.fid, other)),
        domain: "other.example",
      };
      assert.deepEqual(await call(origin, "POST", "/verify-siwf", wrongDomain), {
        status: 401,
        body: errorOf("the message is for the domain example.com, not other.example"),
      });
    });

    it("refuses bad bodies with a sentence", async () => {
      const { nonce } = await client().generateNonce();
      const good = await signedMessage(user.account, user.fid, nonce);
      const cases: [unknown, string][] = [
        [{ signature: good.signature, domain: DOMAIN }, 'field "message" is required'],
        [{ ...good, domain: 7 }, 'field "domain" must be string'],
        [{ ...good, acceptAuthAddress: "yes" }, 'field "acceptAuthAddress" must be boolean'],
        [{ ...good, extra: 1 }, 'field "extra" is not allowed'],
        [
          { ...good, message: "hello" },
          "the message is not a Sign In With Ethereum message: it needs a domain, an address, a URI, a nonce and version 1",
        ],
        [{ ...good, message: "x".repeat(9000) }, 'field "message" must NOT have more than 8192 characters'],
        ['{"message":', "request body is not valid JSON"],
      ];
      for (const [body, message] of cases)
        assert.deepEqual(
          await call(origin, "POST", "/verify-siwf", body),
          { status: 400, body: errorOf(message) },
          message,
        );
      // None of them spent the nonce.
      assert.equal((await call(origin, "POST", "/verify-siwf", good)).status, 200);

      assert.deepEqual(await call(origin, "GET", "/verify-jwt?token=abc"), {
        status: 400,
        body: errorOf('query parameter "domain" is required'),
      });
      assert.deepEqual(await call(origin, "GET", `/verify-jwt?token=abc&domain=${DOMAIN}`), {
        status: 400,
        body: errorOf(
          "the token is not valid: the token is not a JWT: it needs three base64url parts separated by dots",
        ),
      });
    });

    it("is callable from any page: the mini app's browser calls it", async () => {
      const headers = { origin: "https://miniapp.example" };
      const nonce = await fetch(`${origin}/nonce`, { method: "POST", headers });
      assert.equal(nonce.status, 200);
      assert.equal(nonce.headers.get("access-control-allow-origin"), "*");
      const preflight = await fetch(`${origin}/verify-siwf`, {
        method: "OPTIONS",
        headers: {
          ...headers,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
      const keys = await fetch(`${origin}/.well-known/jwks.json`, { headers });
      assert.equal(keys.headers.get("access-control-allow-origin"), "*");
      assert.equal(keys.headers.get("cache-control"), "public, max-age=30");
    });

    it("refuses to sign in without a public URL to name as the issuer", async () => {
      const bare = await h.restart({ publicUrl: undefined });
      try {
        const reply = await bare.app.inject({
          method: "POST",
          url: "/verify-siwf",
          payload: { message: "m", signature: "0x", domain: DOMAIN },
        });
        assert.equal(reply.statusCode, 503);
        assert.deepEqual(
          reply.json(),
          errorOf(
            "Quick Auth is off: this client API was started without a public URL, which its tokens must name as their issuer",
          ),
        );
      } finally {
        await bare.close();
      }
    });
  });

  describe(`Quick Auth key rotation on ${engine.engine}`, { skip: engine.skip }, () => {
    let h: Harness;
    let origin: string;
    let user: Wallet;
    let offset = 0;

    before(async () => {
      h = await startHarness(engine, { now: () => Date.now() + offset * 1000, publicUrl: () => origin });
      origin = h.url;
      user = await registerWallet(h.devchain);
    });
    after(() => h?.close());

    async function token(): Promise<string> {
      const client = createClient({ origin });
      const { nonce } = await client.generateNonce();
      return (await client.verifySiwf(await signedMessage(user.account, user.fid, nonce))).token;
    }
    const kids = async () =>
      ((await call(origin, "GET", "/.well-known/jwks.json")).body.keys as { kid: string }[]).map(
        (k) => k.kid,
      );

    it("keeps tokens signed before a rotation valid, and signs with the new key a minute later", async () => {
      // No key before the first sign-in: reading the key set writes nothing.
      assert.deepEqual(await kids(), []);
      const before = await token();
      const [old] = await kids();
      assert.equal(headerOf(before).kid, old);

      const rotated = await call(origin, "POST", "/v1/quick-auth/keys/rotate");
      assert.equal(rotated.status, 200);
      const [, fresh] = await kids();
      assert.ok(fresh !== undefined && fresh !== old);
      const { keys } = rotated.body.result;
      assert.deepEqual(
        keys.map((k: { kid: string }) => k.kid),
        [old, fresh],
      );
      assert.equal(keys[0].retiredAt, keys[1].signsFrom);
      assert.ok(Math.abs(keys[1].signsFrom - Math.floor(Date.now() / 1000) - 60) <= 1);
      assert.equal(keys[1].retiredAt, undefined);

      // The old key signs until the new one starts: verifiers have had time to fetch it.
      assert.equal(headerOf(await token()).kid, old);
      offset = 61;
      const after = await token();
      assert.equal(headerOf(after).kid, fresh);

      const client = createClient({ origin });
      assert.equal((await client.verifyJwt({ token: before, domain: DOMAIN })).sub, user.fid);
      assert.equal((await client.verifyJwt({ token: after, domain: DOMAIN })).sub, user.fid);

      // An hour after it stopped signing, the old key's tokens have all expired: it leaves the key set.
      offset = 61 + HOUR;
      assert.deepEqual(await kids(), [fresh]);
      await h.api.service.quickAuth.deleteExpired();
      offset = 0;
      assert.deepEqual(await kids(), [fresh]);
    });

    it("rotates only for the operator", async () => {
      const reply = await call(origin, "POST", "/v1/quick-auth/keys/rotate", undefined, {
        origin: "https://miniapp.example",
      });
      assert.equal(reply.status, 403);
    });
  });

  describe(`Quick Auth's bound on nonces on ${engine.engine}`, { skip: engine.skip }, () => {
    let h: Harness;

    before(async () => {
      h = await startHarness(engine, { publicUrl: () => h?.url, quickAuthNoncesPerAddressPerHour: 3 });
    });
    after(() => h?.close());

    it("refuses a client more nonces than its hourly allowance, with Retry-After, and keeps none of them", async () => {
      const ask = () => fetch(`${h.url}/nonce`, { method: "POST" });
      for (let i = 0; i < 3; i++) assert.equal((await ask()).status, 200);
      const refused = await ask();
      assert.equal(refused.status, 429);
      // 3 an hour: the next one in 1200 s.
      assert.equal(refused.headers.get("retry-after"), "1200");
      assert.deepEqual(await refused.json(), {
        errors: [{ message: "too many Quick Auth nonces asked for from this address; try again in 1200 s" }],
      });
      const database = openDatabase<ClientApiTables>(h.apiDatabase);
      try {
        const kept = await database.db.selectFrom("api_quick_auth_nonces").select("nonce").execute();
        assert.equal(kept.length, 3);
      } finally {
        await database.close();
      }
    });
  });
}
