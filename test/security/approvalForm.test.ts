/**
 * Second review, finding 1: the approval page's development-account form signs a key add with a
 * keystore account's custody key. Any caller that reaches the client API from loopback (a script that
 * sends the page's own Origin, another local user, every internet client behind a reverse proxy on the
 * same host) must not be able to use it: only the keystore's owner, who can read the data directory's
 * approval key, may. Also: account names are not shown to callers who cannot use them.
 */
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as core from "@farcaster/core";
import { privateKeyToAccount } from "viem/accounts";
import { type AccountDetails, createAccount } from "../../src/cli/account.js";
import { Keystore } from "../../src/cli/keystore.js";
import { castnet } from "../cli/run.js";
import { type PagesStack, type User, createUser, startPagesStack } from "../pages/support.js";

interface KeyRequest {
  token: string;
  deeplinkUrl: string;
  state: string;
}

/** A signed key request for a fresh key of the attacker's own, made by the attacker's own app fid. */
async function attackerRequest(stack: PagesStack, attacker: AccountDetails): Promise<KeyRequest> {
  const key = new core.NobleEd25519Signer(crypto.getRandomValues(new Uint8Array(32)));
  const keyBytes = (await key.getSignerKey())._unsafeUnwrap();
  const deadline = Math.floor(Date.now() / 1000) + 3600;
  const signature = (
    await new core.ViemLocalEip712Signer(privateKeyToAccount(attacker.custodyPrivateKey)).signKeyRequest({
      requestFid: BigInt(attacker.fid),
      key: keyBytes,
      deadline: BigInt(deadline),
    })
  )._unsafeUnwrap();
  const response = await fetch(`${stack.urls.api}/v2/signed-key-requests`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      key: `0x${Buffer.from(keyBytes).toString("hex")}`,
      requestFid: attacker.fid,
      deadline,
      signature: `0x${Buffer.from(signature).toString("hex")}`,
    }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return ((await response.json()) as { result: { signedKeyRequest: KeyRequest } }).result.signedKeyRequest;
}

async function state(stack: PagesStack, token: string): Promise<string> {
  const response = await fetch(`${stack.urls.api}/v2/signed-key-request?token=${token}`);
  return ((await response.json()) as { result: { signedKeyRequest: KeyRequest } }).result.signedKeyRequest
    .state;
}

/** The form post a script sends, with the page's own Origin (nothing stops a non-browser caller from sending it). */
function postForm(stack: PagesStack, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${stack.urls.api}/approve`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: stack.urls.api,
      ...headers,
    },
    body: new URLSearchParams(fields),
  });
}

const approvalKeyOf = (stack: PagesStack) => readFileSync(join(stack.dataDir, "approval.key"), "utf8").trim();

describe("finding 1: the keystore approval form", () => {
  let stack: PagesStack;
  let victim: User;
  let attacker: AccountDetails;

  before(async () => {
    stack = await startPagesStack();
    victim = await createUser(stack, "victim-dev");
    attacker = await createAccount({ chainUrl: stack.urls.chain, units: 1 });
  });

  after(async () => {
    await stack?.close();
  });

  it("keeps the approval key private to the data directory's owner", () => {
    const path = join(stack.dataDir, "approval.key");
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.match(approvalKeyOf(stack), /^[0-9a-f]{64}$/);
  });

  it("refuses a loopback caller that sends the page's own Origin but not the approval key", async () => {
    const request = await attackerRequest(stack, attacker);
    const page = await fetch(request.deeplinkUrl);
    assert.equal(page.status, 200);
    const body = await page.text();
    assert.doesNotMatch(body, /victim-dev/);
    assert.doesNotMatch(body, new RegExp(`fid ${victim.fid}\\)`));
    assert.match(body, /castnet key-request create/);

    const forged = await postForm(stack, { token: request.token, account: "victim-dev" });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /needs this machine&#39;s approval key/);
    const guessed = await postForm(stack, {
      token: request.token,
      account: "victim-dev",
      key: "0".repeat(64),
    });
    assert.equal(guessed.status, 403);
    assert.equal(await state(stack, request.token), "pending");
  });

  it("refuses a request that came through a proxy, even with the approval key", async () => {
    const request = await attackerRequest(stack, attacker);
    const key = approvalKeyOf(stack);
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip", "via"]) {
      const value = header === "forwarded" ? "for=203.0.113.9" : "203.0.113.9";
      const page = await fetch(`${request.deeplinkUrl}&key=${key}`, { headers: { [header]: value } });
      assert.doesNotMatch(await page.text(), /victim-dev/, header);
      const posted = await postForm(
        stack,
        { token: request.token, account: "victim-dev", key },
        { [header]: value },
      );
      assert.equal(posted.status, 403, header);
    }
    assert.equal(await state(stack, request.token), "pending");
  });

  it("gives the keystore's owner the link with the approval key: castnet key-request create prints it", async () => {
    const created = await castnet(
      {
        CASTNET_DATA_DIR: stack.dataDir,
        CASTNET_API_URL: stack.urls.api,
        CASTNET_HUB_URL: stack.urls.hub,
        CASTNET_CHAIN_URL: stack.urls.chain,
        CASTNET_REGISTRY_URL: stack.urls.registry,
      },
      ...["key-request", "create", "--app", "victim-dev"],
    );
    assert.equal(created.status, 0, created.stderr);
    const link =
      /^approve it in your browser with a keystore account \(this link is yours alone\): (\S+)$/m.exec(
        created.stdout,
      )?.[1];
    assert.match(
      link ?? "",
      new RegExp(`^${stack.urls.api}/approve\\?token=[^&]+&key=${approvalKeyOf(stack)}$`),
    );
    const page = await (await fetch(link!)).text();
    assert.match(page, /<option value="victim-dev">/);
  });

  it("approves for the keystore's owner, whose link carries the approval key", async () => {
    const request = await attackerRequest(stack, attacker);
    const key = approvalKeyOf(stack);
    const page = await fetch(`${request.deeplinkUrl}&key=${key}`);
    const body = await page.text();
    assert.match(body, /<option value="victim-dev">victim-dev \(fid \d+\)<\/option>/);
    assert.match(body, new RegExp(`<input type="hidden" name="key" value="${key}" />`));
    const posted = await postForm(stack, { token: request.token, account: "victim-dev", key });
    assert.equal(posted.status, 303);
    assert.equal(posted.headers.get("location"), `/approve?token=${request.token}`);
    assert.notEqual(await state(stack, request.token), "pending");
  });
});

describe("finding 1: no keystore form where the stack is guarded or served beyond loopback", () => {
  let stack: PagesStack;
  let attacker: AccountDetails;

  before(async () => {
    const adminToken = "an-operator-token-of-this-test";
    stack = await startPagesStack(["--admin-token", adminToken]);
    const victim = await createAccount({ chainUrl: stack.urls.chain, units: 1, adminToken });
    new Keystore(stack.dataDir).add("victim-dev", victim);
    attacker = await createAccount({ chainUrl: stack.urls.chain, units: 1, adminToken });
  });

  after(async () => {
    await stack?.close();
  });

  it("offers no keystore account when an admin token is set", async () => {
    const request = await attackerRequest(stack, attacker);
    const page = await fetch(request.deeplinkUrl);
    const body = await page.text();
    assert.doesNotMatch(body, /victim-dev/);
    assert.doesNotMatch(body, /development account/);
    const posted = await postForm(stack, {
      token: request.token,
      account: "victim-dev",
      key: "0".repeat(64),
    });
    assert.equal(posted.status, 403);
    assert.equal(await state(stack, request.token), "pending");
  });
});
