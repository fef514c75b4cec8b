/**
 * Sign In With Farcaster through the sign-in page in headless Chromium: an app opens a channel with
 * the unchanged @farcaster/auth-client, the test opens the channel's url, and the user signs in with
 * an injected EIP-1193 wallet (personal_sign by a viem account) or a development account of the
 * keystore; auth-client's watchStatus then reads the channel completed for the right fid, and its
 * verifySignInMessage checks the message against the devchain's JSON-RPC. A wallet that does not hold
 * the fid is refused with the relay's sentence, and the channel stays pending.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createAppClient, viemConnector } from "@farcaster/auth-client";
import type { Browser, Page } from "playwright-core";
import type { PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createAccount } from "../../src/stack/account.js";
import {
  type PagesStack,
  type User,
  VIEWPORTS,
  axeViolations,
  createUser,
  launchBrowser,
  screenshot,
  startPagesStack,
} from "./support.js";

const DOMAIN = "app.example";
const SIWE_URI = "https://app.example/login";

describe("the sign-in page in a browser", () => {
  let stack: PagesStack;
  let browser: Browser;
  let user: User;

  before(async () => {
    [stack, browser] = await Promise.all([startPagesStack(), launchBrowser()]);
    user = await createUser(stack, "dev-user");
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  const appClient = () =>
    createAppClient({ relay: stack.urls.api, ethereum: viemConnector({ rpcUrl: stack.urls.chain }) });

  const open = async () => {
    const { data } = await appClient().createChannel({ siweUri: SIWE_URI, domain: DOMAIN });
    return data;
  };

  const statusOf = async (channelToken: string) => (await appClient().status({ channelToken })).data.state;

  /** A page whose window.ethereum is an EIP-1193 provider that personal_signs with `wallet`. */
  async function pageWithWallet(wallet: PrivateKeyAccount, signed: string[] = []): Promise<Page> {
    const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await page.exposeFunction("castnetTestSign", async (message: string) => {
      signed.push(message);
      return wallet.signMessage({ message });
    });
    await page.addInitScript(`window.ethereum = {
      async request({ method, params }) {
        if (method === "eth_requestAccounts" || method === "eth_accounts") return ["${wallet.address.toLowerCase()}"];
        if (method === "personal_sign") return window.castnetTestSign(params[0]);
        throw new Error("unsupported method " + method);
      },
    };`);
    return page;
  }

  /** The app's side once the user approved: watchStatus completes, verifySignInMessage accepts it. */
  async function appSees(channelToken: string, nonce: string, fid: number) {
    const client = appClient();
    const watched = await client.watchStatus({ channelToken, timeout: 10_000, interval: 200 });
    assert.equal(watched.isError, false, String(watched.error));
    const { message, signature, fid: signedFid } = watched.data!;
    assert.equal(signedFid, fid);
    const verified = await client.verifySignInMessage({
      nonce,
      domain: DOMAIN,
      message: message!,
      signature: signature!,
    });
    assert.equal(verified.isError, false, String(verified.error));
    assert.equal(verified.fid, fid);
    assert.equal(verified.success, true);
    return verified;
  }

  it("signs in with an injected wallet holding the fid's custody key; the app verifies it against the chain", async () => {
    const holder = await createAccount({ chainUrl: stack.urls.chain, units: 1 });
    const custody = privateKeyToAccount(holder.custodyPrivateKey);
    const channel = await open();
    assert.equal(channel.url, `${stack.urls.api}/sign-in?channelToken=${channel.channelToken}`);
    const signed: string[] = [];
    const page = await pageWithWallet(custody, signed);
    const response = await page.goto(channel.url);
    assert.equal(response?.status(), 200);
    assert.equal(await page.title(), "Sign in · castnet");
    const main = await page.locator("main").innerText();
    assert.match(main, new RegExp(`domain\\s+${DOMAIN}`));
    assert.match(main, new RegExp(`URI\\s+${SIWE_URI}`));
    assert.match(main, new RegExp(`nonce\\s+${channel.nonce}`));
    assert.match(main, /channel closes\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "sign-in-desktop");

    await page.getByRole("button", { name: "Sign in with wallet" }).click();
    await page.locator('[data-wallet-status][data-state="completed"]').waitFor({ timeout: 15_000 });
    assert.equal(
      await page.locator("[data-wallet-status]").innerText(),
      `Signed in as fid ${holder.fid}: go back to the app.`,
    );
    assert.equal(await page.getByLabel("Your fid").inputValue(), String(holder.fid));
    await screenshot(page, "sign-in-completed-desktop");
    const verified = await appSees(channel.channelToken, channel.nonce, holder.fid);
    assert.equal(verified.authMethod, "custody");
    // The text the wallet signed is auth-client's message: its fields read back as the channel's.
    assert.equal(signed.length, 1);
    assert.equal(verified.data.address, custody.address);
    assert.equal(verified.data.uri, SIWE_URI);
    assert.equal(verified.data.statement, "Farcaster Auth");
    assert.equal(verified.data.chainId, 10);
    assert.deepEqual(verified.data.resources, [`farcaster://fid/${holder.fid}`]);
    await page.close();
  });

  it("refuses a wallet that does not hold the fid with the relay's sentence; the channel stays pending", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const channel = await open();
    const page = await pageWithWallet(stranger);
    await page.goto(channel.url);
    await page.getByRole("button", { name: "Sign in with wallet" }).click();
    await page.locator('[data-wallet-status][data-state="refused"]').waitFor();
    assert.equal(
      await page.locator("[data-wallet-status]").innerText(),
      `The wallet's address ${stranger.address.toLowerCase()} is not the custody address of any fid.`,
    );
    await page.getByLabel("Your fid").fill(String(user.fid));
    await page.getByRole("button", { name: "Sign in with wallet" }).click();
    await page
      .locator('[data-wallet-status][data-state="refused"]')
      .filter({ hasText: "neither" })
      .waitFor({ timeout: 15_000 });
    assert.equal(
      await page.locator("[data-wallet-status]").innerText(),
      `${stranger.address} is neither an auth address nor the custody address of fid ${user.fid}.`,
    );
    assert.equal(await statusOf(channel.channelToken), "pending");

    const forged = await fetch(`${stack.urls.api}/sign-in/wallet`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({
        channelToken: channel.channelToken,
        message: "x",
        signature: `0x${"11".repeat(65)}`,
        fid: user.fid,
      }),
    });
    assert.equal(forged.status, 403);
    assert.equal(await statusOf(channel.channelToken), "pending");
    await page.close();
  });

  it("signs in with a development account for the keystore's owner; an unknown channel is a 404 page", async () => {
    const channel = await open();
    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    const key = readFileSync(join(stack.dataDir, "approval.key"), "utf8").trim();
    const locked = await page.goto(channel.url);
    assert.equal(locked?.status(), 200);
    assert.match(await page.locator("main").innerText(), /needs its approval key/);
    await page.goto(`${channel.url}&key=${key}`);
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, "sign-in-phone");
    await page.getByLabel("Account", { exact: true }).selectOption("dev-user");
    await page.getByRole("button", { name: "Sign in with this account" }).click();
    await page.locator('[data-state="completed"]').waitFor({ timeout: 15_000 });
    await appSees(channel.channelToken, channel.nonce, user.fid);

    // The app read the completed channel: it is gone.
    const gone = await page.goto(channel.url);
    assert.equal(gone?.status(), 404);
    assert.match(await page.locator("main").innerText(), /No open sign-in has this token/);
    await page.close();
  });
});
