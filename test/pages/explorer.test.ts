/**
 * The explorer in headless Chromium: every page reached by its links, readable on a desktop and a
 * phone viewport with no serious accessibility violation, attacker-controlled text rendered inert,
 * the security headers on every answer, and the live feed showing a cast submitted during the test
 * within two seconds.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  type PagesStack,
  type User,
  VIEWPORTS,
  axeViolations,
  cast,
  createUser,
  follow,
  launchBrowser,
  like,
  screenshot,
  setDisplayName,
  startPagesStack,
} from "./support.js";

describe("the explorer in a browser", () => {
  let stack: PagesStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let alice: User;
  let bob: User;
  let rootHash: string;
  let replyHash: string;
  let xssHash: string;
  const pageErrors: string[] = [];

  before(async () => {
    [stack, browser] = await Promise.all([startPagesStack(), launchBrowser()]);
    alice = await createUser(stack, "alice");
    bob = await createUser(stack, "bob");
    await setDisplayName(stack, alice, "Alice Example");
    rootHash = await cast(stack, alice.fid, alice.signer, {
      text: "hello castnet, says  to everyone",
      mentions: [bob.fid],
      mentionsPositions: [20],
      embeds: ["https://example.com/post"],
    });
    replyHash = await cast(stack, bob.fid, bob.signer, {
      text: "a reply from bob",
      parent: { fid: alice.fid, hash: rootHash },
    });
    xssHash = await cast(stack, bob.fid, bob.signer, {
      text: '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">',
      embeds: ["javascript:window.__xss=3"],
    });
    await like(stack, bob, { fid: alice.fid, hash: rootHash });
    await follow(stack, bob, alice.fid);
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function open(path: string): Promise<void> {
    const response = await page.goto(`${stack.urls.api}${path}`);
    assert.equal(response?.status(), 200, `${path}: ${await response?.text()}`);
  }

  async function check(name: string): Promise<void> {
    assert.deepEqual(await axeViolations(page), [], name);
    await screenshot(page, `${name}-desktop`);
    await page.setViewportSize(VIEWPORTS.phone);
    const overflow = await page.evaluate("document.documentElement.scrollWidth > window.innerWidth");
    assert.equal(overflow, false, `${name} is wider than a phone`);
    await screenshot(page, `${name}-phone`);
    await page.setViewportSize(VIEWPORTS.desktop);
  }

  it("home: the parts, counts, latest casts, and a search that finds a fid", async () => {
    await open("/");
    assert.equal(await page.title(), "castnet explorer · castnet");
    assert.equal(await page.locator("table >> text=ready").count(), 4);
    assert.match(await page.locator(".counts").innerText(), /fids\s+2/);
    assert.equal(
      await page.locator(`.cast > p.meta:first-child a[href="/cast/${alice.fid}/${rootHash}"]`).count(),
      1,
    );
    await check("home");
    await page.getByLabel("Search").fill(String(bob.fid));
    await page.getByRole("button", { name: "Go" }).click();
    await page.waitForURL(`${stack.urls.api}/fid/${bob.fid}`);
  });

  it("a fid: custody, signers, storage, profile, casts, reactions, follows", async () => {
    await open(`/fid/${alice.fid}`);
    assert.equal(await page.title(), `fid ${alice.fid} · castnet`);
    const text = await page.locator("main").innerText();
    assert.ok(text.includes(alice.custodyAddress), "custody");
    assert.ok(text.includes(alice.signerPublicKey), "signer");
    assert.match(text, /Alice Example/);
    assert.match(text, /1 units\./);
    assert.equal(await page.locator(`section:has(#follows-h) a[href="/fid/${bob.fid}"]`).count(), 1);
    await check("fid");
    await page.locator(`a[href="/cast/${alice.fid}/${rootHash}"]`).first().click();
    await page.waitForURL(`**/cast/${alice.fid}/${rootHash}`);
  });

  it("a cast: mentions and embeds as links, its reply, reactions and the raw message", async () => {
    await open(`/cast/${alice.fid}/${rootHash}`);
    const castCard = page.locator("section:has(#cast-h) .cast");
    assert.equal(await castCard.locator(".text").innerText(), `hello castnet, says @${bob.fid} to everyone`);
    assert.equal(await castCard.locator(`a[href="/fid/${bob.fid}"]`).count(), 1);
    assert.equal(
      await castCard.locator('a[href="https://example.com/post"]').getAttribute("rel"),
      "nofollow noopener noreferrer",
    );
    assert.equal(
      await page.locator(`section:has(#replies-h) a[href="/cast/${bob.fid}/${replyHash}"]`).count(),
      1,
    );
    assert.match(await page.locator("section:has(#reactions-h)").innerText(), /1 likes, 0 recasts/);
    assert.ok((await page.locator("section:has(#raw-h)").innerText()).includes(rootHash));
    await check("cast");
  });

  it("renders a cast's <script> text and javascript: embed inert", async () => {
    await open(`/cast/${bob.fid}/${xssHash}`);
    const card = page.locator("section:has(#cast-h) .cast");
    assert.equal(
      await card.locator(".text").innerText(),
      '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">',
    );
    assert.equal(await card.locator("script, img").count(), 0);
    assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
    assert.equal(await card.locator(".embeds code.inert").innerText(), "javascript:window.__xss=3");
    assert.equal(await page.evaluate("window.__xss"), undefined);
  });

  it("the events page lists the log, filters by fid, and every answer carries the security headers", async () => {
    const response = await page.goto(`${stack.urls.api}/events?fid=${bob.fid}`);
    const headers = response!.headers();
    assert.match(headers["content-security-policy"]!, /script-src 'self';/);
    assert.match(headers["content-security-policy"]!, /frame-ancestors 'none'/);
    assert.ok(
      headers["content-security-policy"]!.includes(`connect-src 'self' ${new URL(stack.urls.hub).origin}`),
    );
    assert.equal(headers["x-content-type-options"], "nosniff");
    const items = await page.locator("ol.events li").allInnerTexts();
    assert.ok(items.length > 0);
    for (const item of items) assert.ok(item.includes(`fid ${bob.fid}`), item);
    await check("events");
  });

  it("the live feed shows a cast submitted now within two seconds", async () => {
    await open("/");
    await page.locator("[data-live-status]", { hasText: "Live:" }).waitFor({ timeout: 5000 });
    const started = Date.now();
    const hash = await cast(stack, alice.fid, alice.signer, { text: "live from the test" });
    await page.locator(`[data-live-feed] a[href="/cast/${alice.fid}/${hash}"]`).waitFor({ timeout: 2000 });
    assert.ok(Date.now() - started < 2000);
    await screenshot(page, "home-live-desktop");
  });

  it("unknown things are pages that say so, with a 404", async () => {
    const response = await page.goto(`${stack.urls.api}/fid/999999`);
    assert.equal(response?.status(), 404);
    assert.match(await page.locator("main").innerText(), /No fid 999999 is registered/);
  });

  it("serves under 100 KB of JavaScript, gzipped, and ran without a page error", () => {
    const script = readFileSync(join(import.meta.dirname, "../../src/clientapi/pages/assets/app.js"));
    assert.ok(gzipSync(script).length < 100 * 1024);
    assert.deepEqual(pageErrors, []);
  });
});
