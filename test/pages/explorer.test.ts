/**
 * The explorer in headless Chromium: every page reached by its links, readable on a desktop and a
 * phone viewport (no table cut off at the side) with no serious accessibility violation, people named
 * by display name and username with their fid and a picture served by castnet itself, events said in
 * words, attacker-controlled text rendered inert, the security headers on every answer, HTML pages for
 * refused addresses, and the live feed showing a cast submitted during the test within two seconds.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { UserDataType } from "@farcaster/core";
import {
  type PagesStack,
  type User,
  VIEWPORTS,
  axeViolations,
  cast,
  createUser,
  keystoreUser,
  launchBrowser,
  screenshot,
  setUserData,
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
   * answer (demo.example) is the data's, not the page's.
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
    const clipped = await page.evaluate(
      "[...document.querySelectorAll('.scroll')].filter((s) => s.scrollWidth > s.clientWidth).length",
    );
    assert.equal(clipped, 0, `${name}: a table is wider than a phone and cut off`);
    await page.setViewportSize(VIEWPORTS.desktop);
  }

  it("home: the parts, counts, latest casts, and a search that finds a cast by its hash and a name", async () => {
    // Ana is the demo's first fid: the newest casts of the stack are hers now, whoever registered last.
    const newest = await cast(stack, ana.fid, ana.signer, { text: "the newest cast of the stack" });
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
    const latest = page.locator("section:has(#latest-h) .cast");
    assert.equal(await latest.count(), 10);
    assert.equal(await latest.first().locator(".author").innerText(), `Ana Ruiz @ana (fid ${ana.fid})`);
    assert.equal(await latest.first().locator(".text").innerText(), "the newest cast of the stack");
    assert.equal(await latest.first().locator(`a[href="/cast/${ana.fid}/${newest}"]`).count(), 1);
    assert.equal(
      await latest.nth(1).locator(".text").innerText(),
      '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">',
    );
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
    assert.equal(
      await owner.locator(`a[href="/fid/${ana.fid}"]`).innerText(),
      `Ana Ruiz @ana (fid ${ana.fid})`,
    );
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
    assert.equal(await page.title(), `Ana Ruiz @ana (fid ${ana.fid}) · castnet`);
    assert.equal(await page.locator("h1").innerText(), `Ana Ruiz @ana (fid ${ana.fid})`);
    const text = await page.locator("main").innerText();
    assert.ok(text.includes(ana.custodyAddress), "custody");
    assert.ok(text.includes(ana.signerPublicKey!), "signer");
    assert.match(text, /Ana Ruiz/);
    assert.match(text, /Builds clients\. Coffee first\./);
    assert.match(text, /power badge\s+yes/);
    assert.equal(await page.locator("section:has(#verifications-h) tbody tr").count(), 1);
    const benLinks = page.locator(`section:has(#follows-h) a[href="/fid/${ben.fid}"]`);
    assert.deepEqual(await benLinks.allInnerTexts(), [
      `Ben Okafor @ben (fid ${ben.fid})`,
      `Ben Okafor @ben (fid ${ben.fid})`,
    ]);
    assert.equal(
      await page.locator("section:has(#casts-h) .cast .author").first().innerText(),
      `Ana Ruiz @ana (fid ${ana.fid})`,
    );
    assert.equal(await page.locator('section:has(#channels-h) a[href="/channel/welcome"]').count(), 1);
    await check("fid");
    await page.locator(`section:has(#casts-h) a[href="/cast/${ana.fid}/${hello}"]`).first().click();
    await page.waitForURL(`**/cast/${ana.fid}/${hello}`);
  });

  it("people have faces with no network: castnet's generated avatars, and a chosen picture that fails falls back to one", async () => {
    const avatar = await fetch(`${stack.urls.api}/avatars/${ana.fid}.svg`);
    assert.equal(avatar.status, 200);
    assert.equal(avatar.headers.get("content-type"), "image/svg+xml");
    assert.equal(avatar.headers.get("cache-control"), "public, max-age=86400");
    const svg = await avatar.text();
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 48 48"/);
    assert.equal(
      await (await fetch(`${stack.urls.api}/avatars/${ana.fid}.svg`)).text(),
      svg,
      "the same each time",
    );
    assert.notEqual(
      await (await fetch(`${stack.urls.api}/avatars/${ben.fid}.svg`)).text(),
      svg,
      "one per fid",
    );
    const refused = await fetch(`${stack.urls.api}/avatars/0.svg`);
    assert.equal(refused.status, 400);
    assert.match(refused.headers.get("content-type")!, /^application\/json/);

    // The demo world's pictures are the stack's own avatars.
    const profile = await fetch(`${stack.urls.hub}/v1/userDataByFid?fid=${ana.fid}&user_data_type=1`);
    assert.equal(
      ((await profile.json()) as { data: { userDataBody: { value: string } } }).data.userDataBody.value,
      `${stack.urls.api}/avatars/${ana.fid}.svg`,
    );
    await open(`/fid/${ana.fid}`);
    const big = page.locator("section:has(#who-h) img.avatar");
    assert.equal(await big.getAttribute("src"), `/avatars/${ana.fid}.svg`);
    await page.waitForFunction("document.querySelector('#main img.avatar')?.complete");
    assert.equal(
      await big.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      48,
    );

    // A picture on a host that answers is shown; on one that does not, the generated avatar instead.
    const pic = await createUser(stack, "pic");
    await setUserData(stack, pic, UserDataType.PFP, "https://demo.example/avatars/pic.png");
    const pixel = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
      "base64",
    );
    await page.route("https://demo.example/avatars/**", (route) =>
      route.fulfill({ status: 200, contentType: "image/png", body: pixel }),
    );
    await open(`/fid/${pic.fid}`);
    await page.waitForFunction("document.querySelector('#main img.avatar')?.complete");
    assert.equal(await big.getAttribute("src"), "https://demo.example/avatars/pic.png");
    assert.equal(
      await big.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      1,
    );
    await page.unroute("https://demo.example/avatars/**");

    await open(`/fid/${pic.fid}`);
    await page.waitForFunction(
      `document.querySelector('#main img.avatar')?.getAttribute('src') === '/avatars/${pic.fid}.svg'`,
    );
    await page.waitForFunction("document.querySelector('#main img.avatar').complete");
    assert.equal(
      await big.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      48,
    );
    // A fid with 1 unit of storage says so in the singular.
    assert.equal(await page.locator("section:has(#storage-h) p").first().innerText(), "1 unit of storage.");
    await check("fid-unreachable-picture");
  });

  it("a cast thread: the cast, its reply with the mention as a link, likes and recasts, the raw message", async () => {
    await open(`/cast/${ana.fid}/${hello}`);
    assert.equal(await page.title(), `Cast ${hello.slice(0, 10)} by @ana · castnet`);
    assert.match(await page.locator("section:has(#reactions-h)").innerText(), /6 likes, 2 recasts/);
    // Who reacted, by name: every demo account has a display name and a username.
    const reactors = await page.locator("section:has(#reactions-h) tbody td:first-child a").allInnerTexts();
    assert.equal(reactors.length, 8);
    for (const reactor of reactors) assert.match(reactor, /^[A-Z][a-z]+ [A-Z][a-z]+ @[a-z]+ \(fid \d+\)$/);
    assert.ok((await page.locator("section:has(#raw-h)").innerText()).includes(hello));
    // Its events are a link into the log at its time, where its merge is listed.
    const log = page.locator(`section:has(#events-h) a[href^="/events?fid=${ana.fid}&from="]`);
    const logPath = await log.getAttribute("href");
    assert.ok(logPath);
    const replyCard = page.locator("section:has(#replies-h) .cast");
    assert.equal(await replyCard.locator(`a[href="/cast/${ben.fid}/${reply}"]`).count(), 1);
    assert.equal(
      await replyCard.locator(".text").innerText(),
      "@ana the devchain mining a block a second is oddly calming",
    );
    assert.equal(await replyCard.locator(`.text a[href="/fid/${ana.fid}"]`).count(), 1);
    await check("cast");
    // Its merge comes after that point: a few pages of the log on, for a cast the demo world dated back.
    const merge = new RegExp(`\n@ana cast ${hello.slice(0, 10)}…: “gm! castnet is up`);
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
    assert.match(
      await page.locator("section:has(#fields-h)").innerText(),
      new RegExp(`lead\\s+Ben Okafor @ben \\(fid ${ben.fid}\\)`),
    );
    assert.ok((await page.locator("section:has(#followers-h) tbody tr").count()) > 0);
    const psa = page.locator("section:has(#casts-h) .cast", {
      hasText: "PSA: a signer is just an Ed25519 key",
    });
    // A cast's channel is the channel's page here, not its parent URL elsewhere.
    assert.equal(await psa.locator(".meta", { hasText: "in " }).innerText(), "in /dev");
    assert.equal(await psa.locator('.meta a[href="/channel/dev"]').count(), 1);
    await check("channel");
  });

  it("the channel index lists every channel, most followed first, each linked to its page", async () => {
    await open("/");
    await page.getByRole("link", { name: "Channels", exact: true }).click();
    await page.waitForURL(`${stack.urls.api}/channels`);
    assert.equal(await page.title(), "Channels · castnet");
    assert.equal(await page.locator("main > p").first().innerText(), "6 channels, most followed first.");
    const rows = page.locator("tbody tr");
    assert.deepEqual((await rows.locator("td:first-child").allInnerTexts()).slice(0, 3), [
      "/welcome",
      "/dev",
      "/music",
    ]);
    assert.deepEqual((await rows.nth(1).locator("td").allInnerTexts()).slice(0, 4), [
      "/dev",
      "Builders",
      "Apps, frames and clients on the protocol. Show what you are building.",
      "7",
    ]);
    await check("channels");
    await rows.nth(1).locator('a[href="/channel/dev"]').click();
    await page.waitForURL(`${stack.urls.api}/channel/dev`);
  });

  it("renders a cast's <script> text and javascript: embed inert", async () => {
    await open(`/cast/${ben.fid}/${xssHash}`);
    const card = page.locator("section:has(#cast-h) .cast");
    assert.equal(
      await card.locator(".text").innerText(),
      '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">',
    );
    assert.equal(await card.locator("script, img:not(.avatar)").count(), 0);
    assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
    assert.equal(await card.locator(".embeds code.inert").innerText(), "javascript:window.__xss=3");
    assert.equal(await page.evaluate("window.__xss"), undefined);
  });

  it("the events page says what each event did, newest first under the live feed, and pages back", async () => {
    const eve = await createUser(stack, "eve");
    await setUserData(stack, eve, UserDataType.DISPLAY, "Eve Adams");
    await open("/events");
    const sections = await page.locator("main section h2").allInnerTexts();
    assert.deepEqual(sections, ["Live events", "Newest first"]);
    const items = page.locator("ol.events li");
    assert.equal(await items.count(), 100);
    const ids = (await items.locator(".event-id").allInnerTexts()).map((id) => Number(id.slice(1)));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      "newest first",
    );
    const sentences = (await items.allInnerTexts()).map((text) => text.split("\n")[1]);
    assert.equal(sentences[0], `fid ${eve.fid} set display name to “Eve Adams”`);
    for (const said of ["key added for", "got 1 unit of storage", "registered"])
      assert.ok(
        sentences
          .slice(1, 6)
          .some(
            (sentence) =>
              sentence === (said === "key added for" ? `${said} fid ${eve.fid}` : `fid ${eve.fid} ${said}`),
          ),
        `${said}: ${sentences.slice(0, 6).join(" | ")}`,
      );
    await check("events");

    // Older events: the next hundred, all before the last one shown, back to the demo's beginnings.
    const said = new Set(sentences);
    for (let last = ids[ids.length - 1]!, pages = 0; pages < 10; pages++) {
      const link = page.getByRole("link", { name: "Older events" });
      if ((await link.count()) === 0) break;
      await link.click();
      await page.waitForURL(`**/events?before=${last}`);
      const older = (await items.locator(".event-id").allInnerTexts()).map((id) => Number(id.slice(1)));
      assert.ok(older.length > 0 && older[0]! < last);
      assert.equal(await page.getByRole("link", { name: "Newest events" }).count(), 1);
      for (const text of await items.allInnerTexts()) said.add(text.split("\n")[1]!);
      last = older[older.length - 1]!;
    }
    for (const sentence of [
      "@ana set display name to “Ana Ruiz”",
      "@ben followed @ana",
      `the name ana is now @ana's`,
      `key added for @ana`,
      "@lou lent 2 storage units to @jun",
    ])
      assert.ok(said.has(sentence), sentence);
  });

  it("the events page filters by fid, and every answer carries the security headers", async () => {
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
    for (const item of items) assert.ok(item.includes("@ben"), item);
  });

  it("the live feed shows a cast submitted now within two seconds", async () => {
    await open("/");
    await page.locator("[data-live-status]", { hasText: "Live:" }).waitFor({ timeout: 5000 });
    const started = Date.now();
    const hash = await cast(stack, ana.fid, ana.signer, { text: "live from the test" });
    await page.locator(`[data-live-feed] a[href="/cast/${ana.fid}/${hash}"]`).waitFor({ timeout: 2000 });
    assert.ok(Date.now() - started < 2000);
    assert.match(
      await page.locator("[data-live-feed] li", { hasText: "live from the test" }).innerText(),
      new RegExp(`^#\\d+ @ana cast ${hash.slice(0, 10)}…: “live from the test”$`),
    );
    await screenshot(page, "home-live-desktop");
  });

  it("unknown things are pages that say so, with a 404", async () => {
    const response = await page.goto(`${stack.urls.api}/fid/999999`);
    assert.equal(response?.status(), 404);
    assert.match(await page.locator("main").innerText(), /No fid 999999 is registered/);
  });

  it("an address a page's route refuses is a page that says why, with a 400", async () => {
    for (const [path, why] of [
      [`/cast/${ana.fid}/0x1234`, `path parameter "hash" must match pattern "^0x[0-9a-fA-F]{40}$"`],
      ["/fid/ana", `path parameter "fid" must be integer`],
    ] as const) {
      const response = await page.goto(`${stack.urls.api}${path}`);
      assert.equal(response?.status(), 400, path);
      assert.match(response!.headers()["content-type"]!, /^text\/html/);
      assert.equal(await page.title(), "Bad request · castnet");
      assert.equal(
        await page.locator("main p").first().innerText(),
        `This address is not one the explorer has a page for: ${why}.`,
      );
    }
    // The browser reports the page's own status as a failed load; that is the answer asked for here.
    consoleErrors = [];
    await check("bad-request");
  });

  it("serves under 100 KB of JavaScript, gzipped, and ran without a page error", () => {
    const script = readFileSync(join(import.meta.dirname, "../../src/explorer/assets/app.js"));
    assert.ok(gzipSync(script).length < 100 * 1024);
    assert.deepEqual(pageErrors, []);
  });
});
