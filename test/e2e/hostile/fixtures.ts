/**
 * The state the sweep needs before it starts, made through the parts' public APIs: three accounts
 * with signers, two registered names, a stored cast, a pending signed key request, and well-formed
 * bodies each refused at their last check, so that a baseline request reaches every rule and writes
 * nothing.
 */
import assert from "node:assert/strict";
import * as core from "@farcaster/core";
import { encodeFunctionData, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type AccountDetails, createAccount } from "../../../src/stack/account.js";
import { RANDOM } from "./generator.js";
import type { Part } from "./parts.js";
import { OCTET, messageData, signedMessage } from "./protobuf.js";
import type { Fixtures } from "./routes.js";

export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function readJson(
  base: string,
  path: string,
  init?: RequestInit,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, body: await response.json() };
}

export const toHexString = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;

async function registerName(registry: string, account: AccountDetails, name: string, timestamp: number) {
  const custody = privateKeyToAccount(account.custodyPrivateKey);
  const claim = core.makeUserNameProofClaim({ name, owner: custody.address, timestamp });
  const signature = (
    await new core.ViemLocalEip712Signer(custody).signUserNameProofClaim(claim)
  )._unsafeUnwrap();
  return {
    name,
    from: 0,
    to: account.fid,
    fid: account.fid,
    owner: custody.address,
    timestamp,
    signature: toHexString(signature),
  };
}

/** DNS wire format of a name: length-prefixed labels, then 0. */
function dnsName(name: string): `0x${string}` {
  const bytes = name.split(".").flatMap((label) => [label.length, ...Buffer.from(label)]);
  return toHex(Uint8Array.from([...bytes, 0]));
}

/** Makes the fixtures on a stack that has just started (with the demo seed) and answers at `urls`. */
export async function makeFixtures(urls: Record<Part, string>): Promise<Fixtures> {
  const alice = await createAccount({ chainUrl: urls.chain, units: 1 });
  const bob = await createAccount({ chainUrl: urls.chain, units: 1 });
  const carol = await createAccount({ chainUrl: urls.chain, units: 1 });
  await until("the hub to see every signer", async () => {
    for (const account of [alice, bob, carol]) {
      const r = await readJson(urls.hub, `/v1/onChainSignersByFid?fid=${account.fid}`);
      if (r.status !== 200 || !(r.body as { events: unknown[] }).events.length) return undefined;
    }
    return true;
  });

  // Names, so that reads find something and POST /transfers baselines are refused late
  // (TOO_MANY_NAMES: each namer already holds a name). Two namers share the per-fid rate limit.
  const now = Math.floor(Date.now() / 1000);
  const namers: Fixtures["namers"] = [];
  for (const [account, name] of [
    [alice, `hostile-${alice.fid}`],
    [carol, `hostile-${carol.fid}`],
  ] as const) {
    const registered = await readJson(urls.registry, "/transfers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(await registerName(urls.registry, account, name, now)),
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    namers.push({
      account,
      name,
      secondClaim: await registerName(urls.registry, account, `${name}-b`, now),
    });
  }
  await until("the hub to merge the fname proofs", async () => {
    for (const { name } of namers) {
      if ((await fetch(`${urls.hub}/v1/userNameProofByName?name=${name}`)).status !== 200) return undefined;
    }
    return true;
  });

  // A cast, stored, so that reads find it and resubmitting it is a duplicate.
  const signer = new core.NobleEd25519Signer(Buffer.from(alice.signerPrivateKey.slice(2), "hex"));
  const cast = (
    await core.makeCastAdd(
      {
        text: "hostile fixture",
        embeds: [],
        embedsDeprecated: [],
        mentions: [],
        mentionsPositions: [],
        type: 0,
      },
      { fid: alice.fid, network: core.FarcasterNetwork.MAINNET },
      signer,
    )
  )._unsafeUnwrap();
  const castBytes = core.Message.encode(cast).finish();
  const submitted = await fetch(`${urls.hub}/v1/submitMessage`, {
    method: "POST",
    headers: { "content-type": OCTET },
    body: castBytes,
  });
  assert.equal(submitted.status, 200, await submitted.text());
  // The hand-built messages below reach the hub's deepest checks only if this encoder is right.
  const control = await signedMessage(
    Buffer.from(alice.signerPrivateKey.slice(2), "hex"),
    messageData(alice.fid, {}),
  );
  const validated = await fetch(`${urls.hub}/v1/validateMessage`, {
    method: "POST",
    headers: { "content-type": OCTET },
    body: control,
  });
  assert.equal(validated.status, 200, await validated.text());

  // A pending signed key request by bob, and a second request body refused at its last check:
  // well signed and sponsored by bob, who is not signed up as a sponsor.
  const bobCustody = privateKeyToAccount(bob.custodyPrivateKey);
  const deadline = now + 86_400;
  const keyRequest = async () => {
    const key = RANDOM.bytes(32);
    const signature = (
      await new core.ViemLocalEip712Signer(bobCustody).signKeyRequest({
        requestFid: BigInt(bob.fid),
        key,
        deadline: BigInt(deadline),
      })
    )._unsafeUnwrap();
    return { key: toHexString(key), requestFid: bob.fid, deadline, signature: toHexString(signature) };
  };
  const pending = await readJson(urls.api, "/v2/signed-key-request", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(await keyRequest()),
  });
  assert.equal(pending.status, 200, JSON.stringify(pending.body));
  const keyRequestToken = (pending.body as { result: { signedKeyRequest: { token: string } } }).result
    .signedKeyRequest.token;
  const second = await keyRequest();
  const sponsorSignature = await bobCustody.signMessage({
    message: { raw: second.signature as `0x${string}` },
  });
  const keyRequestBody = { ...second, sponsorship: { sponsorFid: bob.fid, signature: sponsorSignature } };
  assert.equal(
    (await fetch(`${urls.api}/v1/admin/sponsors/${bob.fid}`)).status,
    404,
    "bob must not be a sponsor",
  );

  const channel = await readJson(urls.api, "/v1/channel", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ siweUri: "https://app.example/login", domain: "app.example" }),
  });
  assert.equal(channel.status, 201, JSON.stringify(channel.body));
  const signInChannelToken = (channel.body as { channelToken: string }).channelToken;

  const actions = await readJson(urls.api, "/v1/admin/actions");
  const demo = (actions.body as { result: { actions: Record<string, unknown>[] } }).result.actions.find(
    (a) => a.type === "cast",
  )!;
  const demoAction = {
    type: "cast",
    name: demo.name,
    icon: demo.icon,
    description: demo.description,
    aboutUrl: demo.aboutUrl,
    actionUrl: demo.actionUrl,
    postUrl: (demo.action as { postUrl: string }).postUrl,
  };

  const ccipData = encodeFunctionData({
    abi: [
      {
        type: "function",
        name: "resolve",
        stateMutability: "view",
        inputs: [
          { name: "name", type: "bytes" },
          { name: "data", type: "bytes" },
        ],
        outputs: [{ name: "", type: "bytes" }],
      },
    ],
    functionName: "resolve",
    args: [dnsName(`${namers[0]!.name}.example.eth`), "0x3b3b57de"],
  });

  return {
    urls,
    alice,
    bob,
    namers,
    aliceName: namers[0]!.name,
    castHash: toHexString(cast.hash),
    castBytes,
    keyRequestToken,
    signInChannelToken,
    keyRequestBody,
    approvalBody: {
      token: keyRequestToken,
      fid: alice.fid,
      nonce: 0,
      deadline,
      signature: toHexString(RANDOM.bytes(65)),
    },
    demoAction,
    ccipData,
  };
}
