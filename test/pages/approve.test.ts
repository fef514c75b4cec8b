/**
 * The signed key request flow through the approval page in headless Chromium: an app creates a
 * request, the test opens its deeplink, and the user approves with a development account of the
 * keystore, or with an injected EIP-1193 wallet that signs with a viem account; the request then
 * reads `completed` and the hub accepts a cast signed with the new key. Refusals (expired, wrong
 * custody, already approved, a form posted from another site) are shown and change nothing.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type * as core from "@farcaster/core";
import type { Browser, Page } from "playwright-core";
import { type Hex, type PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createAccount } from "../../src/stack/account.js";
import {
  type PagesStack,
  type User,
  VIEWPORTS,
  axeViolations,
  cast,
  createKeyRequest,
  createUser,
  launchBrowser,
  type KeyRequest,
  readKeyRequest,
  screenshot,
  startPagesStack,
} from "./support.js";

describe("the approval page in a browser", () => {
  let stack: PagesStack;
  let browser: Browser;
  let app: User;
  let user: User;

  before(async () => {
    [stack, browser] = await Promise.all([startPagesStack(), launchBrowser()]);
    app = await createUser(stack, "app");
    user = await createUser(stack, "dev-user");
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  const requestKey = (ttlSeconds = 3600) => createKeyRequest(stack, app, ttlSeconds);
  const read = (token: string) => readKeyRequest(stack, token);

  /** The hub takes a cast signed with the approved key (its signer event may trail the chain by a moment). */
  async function castWithKey(fid: number, key: core.NobleEd25519Signer): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await cast(stack, fid, key, { text: "signed with the key the page approved" });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  /** A page whose window.ethereum is an EIP-1193 provider signing with `wallet`. */
  async function pageWithWallet(wallet: PrivateKeyAccount): Promise<Page> {
    const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await page.exposeFunction("castnetTestSign", async (json: string) => {
      const typed = JSON.parse(json) as {
        domain: Record<string, unknown>;
        types: Record<string, { name: string; type: string }[]>;
        primaryType: "Add";
        message: Record<string, unknown>;
      };
      const { EIP712Domain: _domain, ...types } = typed.types;
      return wallet.signTypedData({
        domain: typed.domain,
        types,
        primaryType: typed.primaryType,
        message: typed.message,
      });
    });
    await page.addInitScript(`window.ethereum = {
      async request({ method, params }) {
        if (method === "eth_requestAccounts" || method === "eth_accounts") return ["${wallet.address}"];
        if (method === "eth_signTypedData_v4") return window.castnetTestSign(params[1]);
        throw new Error("unsupported method " + method);
      },
    };`);
    return page;
  }

  /** The link `castnet key-request create` prints for the keystore's owner: the deep link and the approval key. */
  const ownerLink = (request: KeyRequest) =>
    `${request.deeplinkUrl}&key=${readFileSync(join(stack.dataDir, "approval.key"), "utf8").trim()}`;

  it("approves with a development account: the owner's link opens the page, which follows the request to completed", async () => {
    const { request, key } = await requestKey();
    assert.equal(request.deeplinkUrl, `${stack.urls.api}/approve?token=${request.token}`);
    const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    const response = await page.goto(ownerLink(request));
    assert.equal(response?.status(), 200);
    assert.equal(await page.title(), "Approve a key · castnet");
    assert.match(
      await page.locator("main").innerText(),
      new RegExp(`app\\s+no name at the registry, fid ${app.fid}`),
    );
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "approve-desktop");
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, "approve-phone");

    await page.getByLabel("Account", { exact: true }).selectOption("dev-user");
    await page.getByRole("button", { name: "Approve with this account" }).click();
    await page.locator('[data-state="completed"]').waitFor({ timeout: 15_000 });
    await screenshot(page, "approve-completed-phone");
    const done = await read(request.token);
    assert.equal(done.state, "completed");
    assert.equal(done.userFid, user.fid);
    await castWithKey(user.fid, key);
    await page.close();
  });

  it("approves with an injected EIP-1193 wallet signing the typed data with the fid's custody key", async () => {
    const walletKey: Hex = generatePrivateKey();
    const wallet = privateKeyToAccount(walletKey);
    const holder = await createAccount({ chainUrl: stack.urls.chain, units: 1 });
    const custody = privateKeyToAccount(holder.custodyPrivateKey);
    assert.notEqual(custody.address, wallet.address);

    const { request, key } = await requestKey();
    const page = await pageWithWallet(custody);
    await page.goto(request.deeplinkUrl);
    await page.getByRole("button", { name: "Approve with wallet" }).click();
    await page.locator('[data-wallet-status][data-state="completed"]').waitFor({ timeout: 15_000 });
    assert.equal(await page.locator("[data-request-state]").innerText(), "completed");
    const done = await read(request.token);
    assert.equal(done.state, "completed");
    assert.equal(done.userFid, holder.fid);
    await castWithKey(holder.fid, key);

    const second = await requestKey();
    const stranger = await pageWithWallet(wallet);
    await stranger.goto(second.request.deeplinkUrl);
    await stranger.getByRole("button", { name: "Approve with wallet" }).click();
    await stranger.locator('[data-wallet-status][data-state="refused"]').waitFor();
    assert.equal(
      await stranger.locator("[data-wallet-status]").innerText(),
      `The wallet's address ${wallet.address} is not the custody address of any fid.`,
    );
    assert.equal((await read(second.request.token)).state, "pending");
    await Promise.all([page.close(), stranger.close()]);
  });

  it("says so when the request was approved meanwhile or has expired, and refuses a form from another site", async () => {
    const { request } = await requestKey();
    const [first, second] = await Promise.all([browser.newPage(), browser.newPage()]);
    await Promise.all([first.goto(ownerLink(request)), second.goto(ownerLink(request))]);

    const forged = await fetch(`${stack.urls.api}/approve`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ token: request.token, account: "dev-user" }),
    });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /did not come from castnet&#39;s own approval page/);
    assert.equal((await read(request.token)).state, "pending");

    await first.getByRole("button", { name: "Approve with this account" }).click();
    await first.locator('[data-state="completed"]').waitFor({ timeout: 15_000 });
    const refused = second.waitForResponse(
      (r) => r.url().endsWith("/approve") && r.request().method() === "POST",
    );
    await second.getByRole("button", { name: "Approve with this account" }).click();
    assert.equal((await refused).status(), 409);
    assert.match(await second.locator("[data-refusal]").innerText(), /already completed/);

    const expiring = await requestKey(1);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await second.goto(ownerLink(expiring.request));
    assert.match(await second.locator('[data-state="expired"]').innerText(), /This request expired at/);
    assert.equal(await second.getByRole("button", { name: "Approve with this account" }).count(), 0);
    await Promise.all([first.close(), second.close()]);
  });
});
