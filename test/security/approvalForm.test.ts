/**
 * Second review, finding 1: the approval page's development-account form signs a key add with a
 * keystore account's custody key. Any caller that reaches the client API from loopback (a script that
 * sends the page's own Origin, another local user, every internet client behind a reverse proxy on the
 * same host) must not be able to use it: only the keystore's owner, who can read the data directory's
 * approval key, may. Also: account names are not shown to callers who cannot use them. Finding 12:
 * the signing side checks what it is asked to sign, and says so when it is the real network's domain.
 */
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type AccountDetails, createAccount } from "../../src/stack/account.js";
import { approveKeyRequest } from "../../src/wallet/keyRequestApproval.js";
import { Keystore } from "../../src/wallet/keystore.js";
import { castnet } from "../cli/run.js";
import {
  type KeyRequest,
  type PagesStack,
  type User,
  createKeyRequest,
  createUser,
  readKeyRequest,
  startPagesStack,
} from "../pages/support.js";

/** A signed key request for a fresh key of the attacker's own, made by the attacker's own app fid. */
const attackerRequest = async (
  stack: PagesStack,
  attacker: Pick<AccountDetails, "fid" | "custodyPrivateKey">,
): Promise<KeyRequest> => (await createKeyRequest(stack, attacker)).request;

const state = async (stack: PagesStack, token: string) => (await readKeyRequest(stack, token)).state;

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

  it("finding 13: names the app by its registry name first, its display name as self-declared and isolated", async () => {
    const app = await createUser(stack, "honest-app");
    const env = {
      CASTNET_DATA_DIR: stack.dataDir,
      CASTNET_API_URL: stack.urls.api,
      CASTNET_HUB_URL: stack.urls.hub,
      CASTNET_CHAIN_URL: stack.urls.chain,
      CASTNET_REGISTRY_URL: stack.urls.registry,
    };
    const named = await castnet(env, "name", "register", "honestapp", "--as", "honest-app");
    assert.equal(named.status, 0, named.stderr);
    // A right-to-left override makes the text after it read backwards: "Wallet" then "ppa-dliw"…
    const display = "Official Wallet \u202Eppa-dliw";
    const profile = await castnet(env, "profile", "set", "--display", display, "--as", "honest-app");
    assert.equal(profile.status, 0, profile.stderr);
    const deadline = Date.now() + 10_000;
    while (
      !JSON.stringify(
        await (await fetch(`${stack.urls.hub}/v1/userNameProofsByFid?fid=${app.fid}`)).json(),
      ).includes("honestapp")
    ) {
      assert.ok(Date.now() < deadline, "the hub never merged the name");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const request = await attackerRequest(stack, app);
    const page = await (await fetch(request.deeplinkUrl)).text();
    const app_ = /<dt>app<\/dt>\s*<dd>([\s\S]*?)<\/dd>/.exec(page)?.[1] ?? "";
    assert.match(
      app_,
      new RegExp(
        `^\\s*<bdi>@honestapp</bdi> \\(its name at the registry\\), <a href="/fid/${app.fid}">fid ${app.fid}</a>`,
      ),
    );
    assert.match(app_, new RegExp(`calls itself <bdi>${display}</bdi> \\(self-declared\\)`));
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

describe("finding 12: signers pin the key gateway domain", () => {
  it("refuses to sign typed data that is not a key gateway Add, whatever the client API sends", async () => {
    const custody = privateKeyToAccount(generatePrivateKey());
    let posts = 0;
    const permit = {
      domain: {
        name: "USD Coin",
        version: "2",
        chainId: 10,
        verifyingContract: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
      },
      types: { Permit: [{ name: "owner", type: "address" }] },
      primaryType: "Permit",
      message: { owner: custody.address, nonce: 0, deadline: 4_000_000_000 },
    };
    const server = createServer((request, response) => {
      if (request.method === "POST") posts++;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ result: { typedData: permit } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await assert.rejects(
        approveKeyRequest({
          apiUrl: `http://127.0.0.1:${port}`,
          token: "0x01",
          fid: 1,
          custodyPrivateKey: generatePrivateKey(),
        }),
        {
          name: "KeyRequestError",
          message:
            'refusing to sign: the client API asked for something other than a key gateway Add (the domain is "USD Coin", not "Service KeyGateway" or "Farcaster KeyGateway")',
        },
      );
      assert.equal(posts, 0);
    } finally {
      server.close();
    }
  });

  describe("under --naming reference, where the domain is the real network's", () => {
    let stack: PagesStack;
    let user: User;
    let attacker: AccountDetails;

    before(async () => {
      stack = await startPagesStack(["--naming", "reference"]);
      user = await createUser(stack, "reference-dev");
      attacker = await createAccount({ chainUrl: stack.urls.chain, units: 1 });
    });

    after(async () => {
      await stack?.close();
    });

    it("castnet key-request approve refuses without --real-network-domain, and signs with it", async () => {
      const request = await attackerRequest(stack, attacker);
      const env = { CASTNET_API_URL: stack.urls.api, CASTNET_DATA_DIR: stack.dataDir };
      const args = [
        "key-request",
        "approve",
        request.token,
        "--fid",
        String(user.fid),
        "--custody-key",
        user.custodyPrivateKey,
      ];
      const refused = await castnet(env, ...args);
      assert.equal(refused.status, 1);
      assert.match(
        refused.stderr,
        /refusing to sign: the client API asks for the real network's KeyGateway domain \(chain 10, 0x00000000fC56947c7E7183f8Ca4B62398CaAdf0B;/,
      );
      assert.equal(await state(stack, request.token), "pending");
      const signed = await castnet(env, ...args, "--real-network-domain");
      assert.equal(signed.status, 0, signed.stderr);
      assert.notEqual(await state(stack, request.token), "pending");
    });

    it("the page's keystore form says so and signs only once the owner confirms", async () => {
      const request = await attackerRequest(stack, attacker);
      const key = approvalKeyOf(stack);
      const page = await (await fetch(`${request.deeplinkUrl}&key=${key}`)).text();
      assert.match(page, /signed under the real\s+network's KeyGateway domain/);
      assert.match(page, /<input type="checkbox" name="realNetwork" value="yes" required \/>/);
      assert.match(page, /data-real-network="true"/);
      const unconfirmed = await postForm(stack, { token: request.token, account: "reference-dev", key });
      assert.equal(unconfirmed.status, 400);
      assert.match(
        await unconfirmed.text(),
        /refusing to sign: the client API asks for the real network&#39;s KeyGateway domain/,
      );
      assert.equal(await state(stack, request.token), "pending");
      const confirmed = await postForm(stack, {
        token: request.token,
        account: "reference-dev",
        key,
        realNetwork: "yes",
      });
      assert.equal(confirmed.status, 303);
      assert.notEqual(await state(stack, request.token), "pending");
    });
  });
});
