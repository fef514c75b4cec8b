/**
 * Every route a part serves is listed on that part's page under docs/: the route table is the one
 * Fastify records as routes are registered (src/http/server.ts), so a route added without a line in
 * the docs fails here. HEAD and OPTIONS routes are Fastify's and the CORS plugin's, not the part's,
 * and are left out of that table already.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { PartName } from "../../src/stack/parts.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { createLogger } from "../../src/http/index.js";
import { FREE_PORTS } from "../support/ports.js";

const PAGES: Record<PartName, string> = {
  registry: "docs/registry.md",
  hub: "docs/hub.md",
  api: "docs/clientapi.md",
  chain: "docs/devchain.md",
};

/**
 * True when one line of `page` names the method and the path, the path not running on into a longer
 * one: a table row, `GET /path`, or `GET, POST /path`. A parameter may be written `:name` as Fastify
 * does or `{name}`; a wildcard stands for any path the page gives under its prefix.
 */
export function mentions(page: string, method: string, url: string): boolean {
  const path = url
    .split(/(:\w+|\*)/)
    .map((piece) => {
      if (piece === "*") return "[^\\s`|]+";
      if (piece.startsWith(":")) return `(?:${piece}|\\{${piece.slice(1)}\\})`;
      return piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  const pathPattern = new RegExp(`(?<![\\w/.:-])${path}(?![\\w/:{-])`);
  const methodPattern = new RegExp(`\\b${method}\\b`);
  return page.split("\n").some((line) => methodPattern.test(line) && pathPattern.test(line));
}

describe("the docs pages list every route", () => {
  let stack: RunningStack;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "castnet-docs-"));
    const config = parseStartOptions([...["--data-dir", dataDir, "--block-time", "0"], ...FREE_PORTS], {});
    stack = await startStack(config, createLogger("silent"));
  });
  after(async () => {
    await stack?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const part of Object.keys(PAGES) as PartName[]) {
    it(`lists every ${part} route in ${PAGES[part]}`, () => {
      const routes = stack.routes[part] ?? [];
      assert.ok(routes.length > 0, `the stack started no ${part}`);
      const page = readFileSync(PAGES[part], "utf8");
      const missing = routes
        .filter((r) => !mentions(page, r.method, r.url))
        .map((r) => `${r.method} ${r.url}`);
      assert.deepEqual(missing, []);
    });
  }
});
