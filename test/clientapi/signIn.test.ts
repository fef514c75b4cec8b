/**
 * The sign-in relay driven by the unchanged `@farcaster/auth-client`: an app opens a channel, a
 * client app completes it (auth-client's wallet client with the relay key, and the domain method the
 * sign-in page calls), the app watches it complete and verifies the message against the devchain's
 * JSON-RPC; and every refusal the relay answers.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAppClient, createWalletClient, viemConnector } from "@farcaster/auth-client";
import { type Hex, pad } from "viem";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { signInMessage } from "../../src/protocol/siwf.js";
import type { ClientApi } from "../../src/clientapi/index.js";
import type { ClientApiTables } from "../../src/clientapi/tables.js";
import { openDatabase } from "../../src/storage/index.js";
import { testEngines } from "../support/databases.js";
import { startTestStack, type TestStack } from "../support/stack.js";
import { type Reply, type Wallet, ReactionLog, call, errorOf, registerWallet } from "./support.js";

const RELAY_KEY = "a".repeat(64);
const DOMAIN = "example.com";
const SIWE_URI = "https://example.com/login";
const UNKNOWN =
  "no open sign-in channel has this token: it is unknown, its hour is over, or its completed answer was already delivered";
const TOKEN = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/;

for (const engine of await testEngines()) {
  describe(`the sign-in relay on ${engine.engine}`, { skip: engine.skip }, () => {
    let stack: TestStack<"clientapi">;
    let relay: string;
    let rpc: string;
    let user: Wallet;
    let offset = 0;
    const activity = new ReactionLog();
    const appClient = () => createAppClient({ relay, ethereum: viemConnector({ rpcUrl: rpc }) });
    const walletClient = () => createWalletClient({ relay, ethereum: viemConnector({ rpcUrl: rpc }) });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const withKey = (token: string, key = RELAY_KEY) => ({
      ...bearer(token),
      "x-farcaster-auth-relay-key": key,
    });

    async function open(body: Record<string, unknown> = {}) {
      const reply = await call(relay, "POST", "/v1/channel", { siweUri: SIWE_URI, domain: DOMAIN, ...body });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      return reply.body as { channelToken: string; url: string; connectUri: string; nonce: string };
    }

    async function signed(
      channel: { nonce: string },
      signer: { address: Hex; signMessage(args: { message: string }): Promise<Hex> },
      fid: number,
      fields: Partial<Parameters<typeof signInMessage>[0]> = {},
    ) {
      const message = signInMessage({
        domain: DOMAIN,
        uri: SIWE_URI,
        nonce: channel.nonce,
        address: signer.address,
        fid,
        ...fields,
      });
      return { message, signature: await signer.signMessage({ message }) };
    }

    const authenticate = (
      token: string,
      body: unknown,
      headers: Record<string, string> = withKey(token),
    ): Promise<Reply> => call(relay, "POST", "/v1/channel/authenticate", body, headers);

    before(async () => {
      stack = await startTestStack(engine, {
        parts: ["clientapi"],
        clientapi: {
          activity,
          relayKey: RELAY_KEY,
          now: () => Date.now() + offset,
          signInChannelsPerAddressPerHour: 30,
          publicUrl: () => "http://127.0.0.1:9",
        },
        listen: ["devchain", "clientapi"],
      });
      relay = stack.urls.clientapi!;
      rpc = stack.urls.devchain!;
      user = await registerWallet(stack.chain);
      activity.profiles.set(user.fid, {
        username: "ana",
        displayName: "Ana Ruiz",
        bio: "hi",
        pfpUrl: "https://example.com/ana.png",
        verifications: ["0x000000000000000000000000000000000000dead"],
      });
    });
    after(() => stack?.close());

    it("opens a channel as the reference relay answers it, links to castnet's sign-in page", async () => {
      const client = appClient();
      const { data, response } = await client.createChannel({ siweUri: SIWE_URI, domain: DOMAIN });
      assert.equal(response.status, 201);
      assert.deepEqual(Object.keys(data), ["channelToken", "url", "connectUri", "nonce"]);
      assert.match(data.channelToken, TOKEN);
      assert.equal(data.url, `http://127.0.0.1:9/sign-in?channelToken=${data.channelToken}`);
      // auth-client's type leaves connectUri out; the relay answers it.
      assert.equal((data as { connectUri?: string }).connectUri, data.url);
      assert.match(data.nonce, /^[0-9a-f]{96}$/);
      const status = await client.status({ channelToken: data.channelToken });
      assert.equal(status.response.status, 202);
      assert.deepEqual(status.data, {
        state: "pending",
        nonce: data.nonce,
        acceptAuthAddress: true,
        signatureParams: { siweUri: SIWE_URI, domain: DOMAIN, nonce: data.nonce },
        metadata: { userAgent: "node", ip: "127.0.0.1" },
      });
    });

    it("a client app completes it with the relay key; the app watches it complete and verifies it by custody", async () => {
      const app = appClient();
      const { data: channel } = await app.createChannel({
        siweUri: SIWE_URI,
        domain: DOMAIN,
        requestId: "r1",
      });
      const { message, signature } = await signed(channel, user.account, user.fid, { requestId: "r1" });
      const completed = await walletClient().authenticate({
        channelToken: channel.channelToken,
        authKey: RELAY_KEY,
        message,
        signature,
        fid: user.fid,
        displayName: "Ana from the app",
      });
      assert.equal(completed.response.status, 201, JSON.stringify(completed.data));
      const custody = user.account.address;
      const expected = {
        state: "completed",
        nonce: channel.nonce,
        acceptAuthAddress: true,
        signatureParams: { siweUri: SIWE_URI, domain: DOMAIN, nonce: channel.nonce, requestId: "r1" },
        metadata: { userAgent: "node", ip: "127.0.0.1" },
        message,
        signature,
        authMethod: "custody",
        fid: user.fid,
        username: "ana",
        displayName: "Ana from the app",
        bio: "hi",
        pfpUrl: "https://example.com/ana.png",
        custody,
        verifications: ["0x000000000000000000000000000000000000dead"],
      };
      assert.deepEqual(completed.data, { ...expected, url: channel.url, connectUri: channel.url });
      const watched = await app.watchStatus({
        channelToken: channel.channelToken,
        interval: 50,
        timeout: 5000,
      });
      assert.equal(watched.isError, false);
      assert.deepEqual(watched.data, expected);
      const verified = await app.verifySignInMessage({
        nonce: channel.nonce,
        domain: DOMAIN,
        message,
        signature,
      });
      assert.equal(verified.isError, false, String(verified.error));
      assert.equal(verified.fid, user.fid);
      assert.equal(verified.authMethod, "custody");
      // Delivered once: the channel is gone.
      const again = await call(relay, "GET", "/v1/channel/status", undefined, bearer(channel.channelToken));
      assert.deepEqual(again, { status: 401, body: errorOf(UNKNOWN) });
      assert.deepEqual(await authenticate(channel.channelToken, { message, signature, fid: user.fid }), {
        status: 401,
        body: errorOf(UNKNOWN),
      });
    });

    it("the in-process completion (the sign-in page's) by an auth address: authMethod authAddress", async () => {
      const auth = privateKeyToAccount(generatePrivateKey());
      await stack.chain.chain.addKey({
        fid: user.fid,
        key: pad(auth.address.toLowerCase() as Hex, { size: 32 }),
        keyType: 2,
        metadataType: 1,
        metadata: "0x",
      });
      const app = appClient();
      const { data: channel } = await app.createChannel({ siweUri: SIWE_URI, domain: DOMAIN });
      const { message, signature } = await signed(channel, auth, user.fid);
      const api: ClientApi = stack.clientapi;
      const pending = await api.service.signIns.pending(channel.channelToken);
      assert.equal(pending.channel.state, "pending");
      const { channel: done } = await api.service.signIns.complete(channel.channelToken, {
        message,
        signature,
        fid: user.fid,
      });
      assert.equal(done.authMethod, "authAddress");
      assert.equal(done.custody, user.account.address);
      const watched = await app.watchStatus({
        channelToken: channel.channelToken,
        interval: 50,
        timeout: 5000,
      });
      assert.equal(watched.data?.authMethod, "authAddress");
      const verified = await app.verifySignInMessage({
        nonce: channel.nonce,
        domain: DOMAIN,
        message,
        signature,
      });
      assert.equal(verified.isError, false, String(verified.error));
      assert.equal(verified.authMethod, "authAddress");
      // The app that refuses auth addresses: the relay refuses that signer for its channel.
      const strict = await open({ acceptAuthAddress: false });
      const second = await signed(strict, auth, user.fid);
      assert.deepEqual(await authenticate(strict.channelToken, { ...second, fid: user.fid }), {
        status: 401,
        body: errorOf(`${auth.address} is not the custody address of fid ${user.fid}`),
      });
    });

    it("a message signed by another address completes nothing, and auth-client refuses it too", async () => {
      const channel = await open();
      const other = privateKeyToAccount(generatePrivateKey());
      const { message, signature } = await signed(channel, other, user.fid);
      assert.deepEqual(await authenticate(channel.channelToken, { message, signature, fid: user.fid }), {
        status: 401,
        body: errorOf(
          `${other.address} is neither an auth address nor the custody address of fid ${user.fid}`,
        ),
      });
      const verified = await appClient().verifySignInMessage({
        nonce: channel.nonce,
        domain: DOMAIN,
        message,
        signature,
      });
      assert.equal(verified.isError, true);
      const status = await call(relay, "GET", "/v1/channel/status", undefined, bearer(channel.channelToken));
      assert.equal(status.status, 202);
    });

    it("refuses bad tokens, keys and bodies with a sentence, and completes a channel once", async () => {
      const channel = await open();
      const good = await signed(channel, user.account, user.fid);
      const body = { ...good, fid: user.fid };
      const needsBearer =
        "this route needs the sign-in channel's token as a Bearer token (Authorization: Bearer <channelToken>)";
      assert.deepEqual(await call(relay, "GET", "/v1/channel/status"), {
        status: 401,
        body: errorOf(needsBearer),
      });
      assert.deepEqual(await call(relay, "GET", "/v1/channel/status", undefined, bearer("ZZZZZZZZ")), {
        status: 401,
        body: errorOf(UNKNOWN),
      });
      assert.deepEqual(await call(relay, "GET", "/v1/channel/status", undefined, bearer("';drop--")), {
        status: 401,
        body: errorOf(UNKNOWN),
      });
      const wrongKey = "this route needs the relay's key in the X-Farcaster-Auth-Relay-Key header";
      assert.deepEqual(
        await authenticate(channel.channelToken, body, withKey(channel.channelToken, "b".repeat(64))),
        {
          status: 401,
          body: errorOf(wrongKey),
        },
      );
      assert.deepEqual(await authenticate(channel.channelToken, body, bearer(channel.channelToken)), {
        status: 401,
        body: errorOf(wrongKey),
      });
      assert.deepEqual(
        await authenticate(channel.channelToken, body, { "x-farcaster-auth-relay-key": RELAY_KEY }),
        {
          status: 401,
          body: errorOf(needsBearer),
        },
      );
      const bodies = [
        { ...body, extra: 1 },
        { ...body, signature: "0x12" },
        { ...body, fid: "1" },
        { ...body, authMethod: "other" },
        { message: good.message, signature: good.signature },
      ];
      const refusals = [];
      for (const bad of bodies) refusals.push(await authenticate(channel.channelToken, bad));
      assert.deepEqual(refusals, [
        { status: 400, body: errorOf('field "extra" is not allowed') },
        { status: 400, body: errorOf('field "signature" must match pattern "^0x[a-fA-F0-9]{130}$"') },
        { status: 400, body: errorOf('field "fid" must be integer') },
        { status: 400, body: errorOf('field "authMethod" must be equal to one of the allowed values') },
        { status: 400, body: errorOf('field "fid" is required') },
      ]);
      assert.deepEqual(await authenticate(channel.channelToken, { ...body, fid: user.fid + 1000 }), {
        status: 400,
        body: errorOf(`the message signs in fid ${user.fid}, not fid ${user.fid + 1000}`),
      });
      assert.deepEqual(await authenticate(channel.channelToken, { ...body, authMethod: "authAddress" }), {
        status: 400,
        body: errorOf(
          `authMethod is authAddress, but ${user.account.address} signs for fid ${user.fid} as its custody address`,
        ),
      });
      const wrongNonce = await signed({ nonce: "abcdefgh1234" }, user.account, user.fid);
      assert.deepEqual(await authenticate(channel.channelToken, { ...wrongNonce, fid: user.fid }), {
        status: 401,
        body: errorOf("the message's nonce is not the one this sign-in was given"),
      });
      const wrongDomain = await signed(channel, user.account, user.fid, { domain: "evil.example" });
      assert.deepEqual(await authenticate(channel.channelToken, { ...wrongDomain, fid: user.fid }), {
        status: 401,
        body: errorOf(`the message is for the domain evil.example, not ${DOMAIN}`),
      });
      const otherChain = good.message.replace("Chain ID: 10", "Chain ID: 1");
      const otherChainSigned = {
        message: otherChain,
        signature: await user.account.signMessage({ message: otherChain }),
      };
      assert.deepEqual(await authenticate(channel.channelToken, { ...otherChainSigned, fid: user.fid }), {
        status: 400,
        body: errorOf("the message's Chain ID must be 10"),
      });
      assert.equal((await authenticate(channel.channelToken, body)).status, 201);
      assert.deepEqual(await authenticate(channel.channelToken, body), {
        status: 409,
        body: errorOf(
          `this sign-in channel is already completed by fid ${user.fid}; a channel completes once`,
        ),
      });
    });

    it("refuses bad channel bodies with a sentence", async () => {
      for (const [bad, status] of [
        [{ domain: DOMAIN }, 400],
        [{ siweUri: "not a uri", domain: DOMAIN }, 400],
        [{ siweUri: SIWE_URI, domain: "bad domain" }, 400],
        [{ siweUri: SIWE_URI, domain: DOMAIN, notBefore: "yesterday" }, 400],
        [{ siweUri: SIWE_URI, domain: DOMAIN, unknown: true }, 400],
        [{ siweUri: SIWE_URI, domain: DOMAIN, nonce: "short" }, 400],
      ] as const) {
        const reply = await call(relay, "POST", "/v1/channel", bad);
        assert.equal(reply.status, status, JSON.stringify(reply.body));
        assert.equal(typeof reply.body.errors[0].message, "string");
      }
      assert.deepEqual(await call(relay, "POST", "/v1/channel", "{not json"), {
        status: 400,
        body: errorOf("request body is not valid JSON"),
      });
    });

    it("a channel's hour ends: 401 after it, and the background loop deletes it", async () => {
      const channel = await open({ nonce: "fixednonce123" });
      assert.equal(channel.nonce, "fixednonce123");
      const good = await signed(channel, user.account, user.fid);
      const db = openDatabase<ClientApiTables>(stack.databases.clientapi);
      const kept = async () =>
        (
          await db.db
            .selectFrom("api_sign_in_channels")
            .select("token")
            .where("token", "=", channel.channelToken)
            .execute()
        ).length;
      assert.equal(await kept(), 1);
      offset += 3601_000;
      try {
        assert.deepEqual(
          await call(relay, "GET", "/v1/channel/status", undefined, bearer(channel.channelToken)),
          {
            status: 401,
            body: errorOf(UNKNOWN),
          },
        );
        assert.deepEqual(await authenticate(channel.channelToken, { ...good, fid: user.fid }), {
          status: 401,
          body: errorOf(UNKNOWN),
        });
        await stack.clientapi.service.signIns.deleteExpired();
        assert.equal(await kept(), 0);
      } finally {
        offset -= 3601_000;
        await db.close();
      }
    });

    it("bounds the channels one address opens, with Retry-After", async () => {
      const response = async () => {
        const r = await fetch(`${relay}/v1/channel`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ siweUri: SIWE_URI, domain: DOMAIN }),
        });
        return {
          status: r.status,
          retry: r.headers.get("retry-after"),
          body: (await r.json()) as Reply["body"],
        };
      };
      let last;
      for (let i = 0; i < 40; i++) {
        last = await response();
        if (last.status === 429) break;
      }
      assert.equal(last?.status, 429);
      assert.ok(Number(last?.retry) > 0);
      assert.match(
        last?.body.errors[0].message,
        /^too many sign-in channels opened from this address; try again in \d+ s$/,
      );
    });
  });
}
