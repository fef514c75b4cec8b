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
  keystoreUser,
  launchBrowser,
  screenshot,
  startPagesStack,
} from "./support.js";

interface Cast {
  hash: string;
  data: { fid: number; castAddBody?: { text: string } };
}

describe("the explorer in a browser, on a stack started with --seed demo", () => {
  let stack: PagesStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ana: User;
  let ben: User;
  let hello: string;
  let reply: string;
  let xssHash: string;
  const pageErrors: string[] = [];
  /**
   * What the browser's console reported as errors since the page last opened, from the stack's own
   * origins (a resource of the page that failed, say). A profile picture on a host that does not
   * answer (the demo world's are on demo.example) is the data's, not the page's.
   */
  let consoleErrors: string[] = [];

  /** The hash of the demo cast by `fid` whose text has `text`. */
  async function demoCast(fid: number, text: string): Promise<string> {
    const response = await fetch(`${stack.urls.hub}/v1/castsByFid?fid=${fid}&pageSize=100`);
    const { messages } = (await response.json()) as { messages: Cast[] };
    const found = messages.find((m) => m.data.castAddBody?.text.includes(text));
    assert.ok(found, `the demo world has a cast by fid ${fid} with "${text}"`);
    return found.hash;
  }

  before(async () => {
    [stack, browser] = await Promise.all([startPagesStack(["--seed", "demo"]), launchBrowser()]);
    ana = keystoreUser(stack, "ana");
    ben = keystoreUser(stack, "ben");
    hello = await demoCast(ana.fid, "gm! castnet is up");
    reply = await demoCast(ben.fid, "the devchain mining a block");
    xssHash = await cast(stack, ben.fid, ben.signer, {
      text: '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">',
      embeds: ["javascript:window.__xss=3"],
    });
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    const origins = Object.values(stack.urls).map((url) => new URL(url).origin);
    page.on("console", (message) => {
      const { url } = message.location();
      if (message.type() === "error" && (!URL.canParse(url) || origins.includes(new URL(url).origin)))
        consoleErrors.push(`${message.text()} (${url})`);
    });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function open(path: string): Promise<void> {
    consoleErrors = [];
    const response = await page.goto(`${stack.urls.api}${path}`);
    assert.equal(response?.status(), 200, `${path}: ${await response?.text()}`);
  }

  async function check(name: string): Promise<void> {
    assert.deepEqual(await axeViolations(page), [], name);
    assert.deepEqual(consoleErrors, [], `${name}: the browser's console reported errors`);
    await screenshot(page, `${name}-desktop`);
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, `${name}-phone`);
    const overflow = await page.evaluate("document.documentElement.scrollWidth > window.innerWidth");
    assert.equal(overflow, false, `${name} is wider than a phone`);
    await page.setViewportSize(VIEWPORTS.desktop);
  }

  it("home: the parts, counts, latest casts, and a search that finds a cast by its hash and a name", async () => {
    await open("/");
    assert.equal(await page.title(), "castnet explorer · castnet");
    const icon = await fetch(
      new URL((await page.locator('link[rel="icon"]').getAttribute("href"))!, page.url()),
    );
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get("content-type"), "image/svg+xml");
    assert.match(await icon.text(), /^<svg /);
    assert.equal(await page.locator("table >> text=ready").count(), 4);
    assert.match(await page.locator(".counts").innerText(), /fids\s+12\b/);
    assert.ok((await page.locator("section:has(#latest-h) .cast").count()) > 0);
    await check("home");
    await page.getByLabel("Search").fill(reply.slice(0, 12));
    await page.getByRole("button", { name: "Go" }).click();
    await page.waitForURL(`${stack.urls.api}/cast/${ben.fid}/${reply}`);
    await page.getByLabel("Search").fill("ana");
    await page.getByRole("button", { name: "Go" }).click();
    await page.waitForURL(`${stack.urls.api}/name/ana`);
  });

  it("a name: its owner and its transfer history with the registry's signatures", async () => {
    await open("/name/ana");
    assert.equal(await page.title(), "Name ana · castnet");
    const owner = page.locator("section:has(#owner-h)");
    assert.equal(await owner.locator(`a[href="/fid/${ana.fid}"]`).count(), 1);
    assert.ok((await owner.innerText()).toLowerCase().includes(ana.custodyAddress.toLowerCase()));
    assert.match(
      await page.locator("section:has(#history-h) code.sig").last().innerText(),
      /^0x[0-9a-f]{130}$/,
    );
    await check("name");
    await owner.locator(`a[href="/fid/${ana.fid}"]`).click();
    await page.waitForURL(`**/fid/${ana.fid}`);
  });

  it("a fid: custody, signers, storage, names, profile, verifications, casts, follows, channels, badge", async () => {
    await open(`/fid/${ana.fid}`);
    assert.equal(await page.title(), `ana (fid ${ana.fid}) · castnet`);
    const text = await page.locator("main").innerText();
    assert.ok(text.includes(ana.custodyAddress), "custody");
    assert.ok(text.includes(ana.signerPublicKey!), "signer");
    assert.match(text, /Ana Ruiz/);
    assert.match(text, /Builds clients\. Coffee first\./);
    assert.match(text, /power badge\s+yes/);
    assert.equal(await page.locator("section:has(#verifications-h) tbody tr").count(), 1);
    assert.equal(await page.locator(`section:has(#follows-h) a[href="/fid/${ben.fid}"]`).count(), 2);
    assert.equal(await page.locator('section:has(#channels-h) a[href="/channel/welcome"]').count(), 1);
    await check("fid");
    await page.locator(`section:has(#casts-h) a[href="/cast/${ana.fid}/${hello}"]`).first().click();
    await page.waitForURL(`**/cast/${ana.fid}/${hello}`);
  });

  it("a profile picture shows when its host answers with an image, and is left out when it does not", async () => {
    // The demo world's pictures are on demo.example, which never resolves; here it answers once.
    const pixel = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
      "base64",
    );
    await page.route("https://demo.example/avatars/**", (route) =>
      route.fulfill({ status: 200, contentType: "image/png", body: pixel }),
    );
    await open(`/fid/${ana.fid}`);
    await page.waitForFunction("document.querySelector('img.avatar')?.complete");
    assert.equal(
      await page
        .locator("img.avatar")
        .evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      1,
    );
    await page.unroute("https://demo.example/avatars/**");

    await open(`/fid/${ana.fid}`);
    await page.locator("img.avatar").waitFor({ state: "detached" });
    await check("fid-unreachable-picture");
  });

  it("a cast thread: the cast, its reply with the mention as a link, likes and recasts, the raw message", async () => {
    await open(`/cast/${ana.fid}/${hello}`);
    assert.match(await page.locator("section:has(#reactions-h)").innerText(), /6 likes, 2 recasts/);
    assert.ok((await page.locator("section:has(#raw-h)").innerText()).includes(hello));
    // Its events are a link into the log at its time, where its merge is listed.
    const log = page.locator(`section:has(#events-h) a[href^="/events?fid=${ana.fid}&from="]`);
    const logPath = await log.getAttribute("href");
    assert.ok(logPath);
    const replyCard = page.locator("section:has(#replies-h) .cast");
    assert.equal(await replyCard.locator(`a[href="/cast/${ben.fid}/${reply}"]`).count(), 1);
    assert.equal(
      await replyCard.locator(".text").innerText(),
      `@${ana.fid} the devchain mining a block a second is oddly calming`,
    );
    assert.equal(await replyCard.locator(`.text a[href="/fid/${ana.fid}"]`).count(), 1);
    await check("cast");
    // Its merge comes after that point: a few pages of the log on, for a cast the demo world dated back.
    const merge = new RegExp(`merge message: cast_add ${hello.slice(0, 10)}… · fid ${ana.fid}$`);
    let found = false;
    for (let path: string | null = logPath, pages = 0; path && !found && pages < 20; pages++) {
      await open(path);
      found = (await page.locator("ol.events li").allInnerTexts()).some((text) => merge.test(text));
      path = found ? null : await page.locator('a[rel="next"]').getAttribute("href");
    }
    assert.ok(found, "the cast's merge follows the point its page links to");
    await open(`/cast/${ben.fid}/${reply}`);
    assert.equal(await page.locator(`section:has(#parent-h) a[href="/cast/${ana.fid}/${hello}"]`).count(), 1);
  });

  it("a channel: its fields, followers and the casts under its URL", async () => {
    await open("/channel/dev");
    assert.equal(await page.title(), "Channel /dev · castnet");
    assert.match(
      await page.locator("section:has(#fields-h)").innerText(),
      /https:\/\/demo\.example\/channel\/dev/,
    );
    assert.ok((await page.locator("section:has(#followers-h) tbody tr").count()) > 0);
    assert.match(
      await page.locator("section:has(#casts-h)").innerText(),
      /PSA: a signer is just an Ed25519 key/,
    );
    await check("channel");
  });

  it("renders a cast's <script> text and javascript: embed inert", async () => {
    await open(`/cast/${ben.fid}/${xssHash}`);
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
    const response = await page.goto(`${stack.urls.api}/events?fid=${ben.fid}`);
    const headers = response!.headers();
    assert.match(headers["content-security-policy"]!, /script-src 'self';/);
    assert.match(headers["content-security-policy"]!, /frame-ancestors 'none'/);
    assert.ok(
      headers["content-security-policy"]!.includes(`connect-src 'self' ${new URL(stack.urls.hub).origin}`),
    );
    assert.equal(headers["x-content-type-options"], "nosniff");
    const items = await page.locator("ol.events li").allInnerTexts();
    assert.ok(items.length > 0);
    for (const item of items) assert.ok(item.includes(`fid ${ben.fid}`), item);
    await check("events");
  });

  it("the live feed shows a cast submitted now within two seconds", async () => {
    await open("/");
    await page.locator("[data-live-status]", { hasText: "Live:" }).waitFor({ timeout: 5000 });
    const started = Date.now();
    const hash = await cast(stack, ana.fid, ana.signer, { text: "live from the test" });
    await page.locator(`[data-live-feed] a[href="/cast/${ana.fid}/${hash}"]`).waitFor({ timeout: 2000 });
    assert.ok(Date.now() - started < 2000);
    await screenshot(page, "home-live-desktop");
  });

  it("unknown things are pages that say so, with a 404", async () => {
    const response = await page.goto(`${stack.urls.api}/fid/999999`);
    assert.equal(response?.status(), 404);
    assert.match(await page.locator("main").innerText(), /No fid 999999 is registered/);
  });

  it("serves under 100 KB of JavaScript, gzipped, and ran without a page error", () => {
    const script = readFileSync(join(import.meta.dirname, "../../src/explorer/assets/app.js"));
    assert.ok(gzipSync(script).length < 100 * 1024);
    assert.deepEqual(pageErrors, []);
  });
});
