/**
 * Each part's Swagger UI page as castnet's: its name in the title and castnet's logo and icon, a
 * viewport tag so that it reads on a phone, and every route described in its users' words, the SPEC
 * rules it follows kept apart in `x-spec`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import {
  type PagesStack,
  type Urls,
  VIEWPORTS,
  launchBrowser,
  screenshot,
  startPagesStack,
} from "./support.js";

const TITLES: Record<keyof Urls, string> = {
  registry: "castnet name registry",
  hub: "castnet hub",
  api: "castnet client API",
  chain: "castnet devchain",
};

interface Operation {
  summary?: string;
  description?: string;
  "x-spec"?: string;
}

describe("the parts' API docs pages", () => {
  let stack: PagesStack;
  let browser: Browser;

  before(async () => {
    [stack, browser] = await Promise.all([startPagesStack(), launchBrowser()]);
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  for (const part of Object.keys(TITLES) as (keyof Urls)[]) {
    it(`${part}: the docs page is castnet's, with a viewport tag`, async () => {
      const response = await fetch(`${stack.urls[part]}/docs`);
      assert.equal(response.status, 200);
      const html = await response.text();
      assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
      assert.match(html, new RegExp(`<title>${TITLES[part]} · API docs</title>`));
      assert.match(html, /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml;base64,/);
      assert.doesNotMatch(html, /favicon-32x32\.png/);
      const initializer = await (
        await fetch(`${stack.urls[part]}/docs/static/swagger-initializer.js`)
      ).text();
      assert.match(initializer, /img\.src = 'data:image\/svg\+xml;base64,/);
    });

    it(`${part}: every route is described in users' words, its SPEC rules apart`, async () => {
      const document = (await (await fetch(`${stack.urls[part]}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, Operation>>;
      };
      const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ where: `${method} ${path}`, operation })),
      );
      const citing = operations
        .filter(({ operation }) => operation.description?.startsWith("SPEC"))
        .map(({ where }) => where);
      assert.deepEqual(citing, []);
      const unfinished = operations
        .filter(
          ({ operation }) => operation.description !== undefined && !/[.)]$/.test(operation.description),
        )
        .map(({ where }) => where);
      assert.deepEqual(unfinished, [], "each description is a sentence");
      for (const { where, operation } of operations)
        if (operation["x-spec"] !== undefined) assert.match(operation["x-spec"], /^SPEC /, where);
    });
  }

  it("the hub's docs page reads on a phone and shows castnet's logo", async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    await page.goto(`${stack.urls.hub}/docs`);
    await page.locator(".topbar-wrapper img").waitFor();
    assert.match((await page.locator(".topbar-wrapper img").getAttribute("src"))!, /^data:image\/svg\+xml;/);
    await page.locator(".opblock-summary-description", { hasText: "Casts by fid" }).click();
    await page
      .locator(".opblock-description-wrapper", { hasText: "A fid's casts, a page at a time." })
      .waitFor();
    assert.equal(await page.title(), "castnet hub · API docs");
    await screenshot(page, "api-docs-desktop");
    await page.close();
    // A phone lays a page out at the viewport tag's width; without the tag, at 980 px, and shrinks it.
    const phone = await browser.newContext({ viewport: VIEWPORTS.phone, isMobile: true });
    const small = await phone.newPage();
    await small.goto(`${stack.urls.hub}/docs`);
    await small.locator(".topbar-wrapper img").waitFor();
    assert.equal(await small.evaluate("window.innerWidth"), VIEWPORTS.phone.width);
    await screenshot(small, "api-docs-phone");
    await phone.close();
  });
});
