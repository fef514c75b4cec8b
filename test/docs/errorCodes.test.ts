/**
 * Every error code a part defines is on that part's page under docs/, in a table with its HTTP status:
 * the codes are read from the part's own status table (its errors.ts), so a code added without a
 * row in the docs fails here, naming the code. The other way round too: a code a page's tables give
 * that the part does not define (renamed, dropped, misspelt) fails, as Fastify holds its error
 * reference to its error list.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { CLIENT_API_ERROR_STATUS } from "../../src/clientapi/errors.js";
import { DEVCHAIN_ERROR_STATUS } from "../../src/interfaces/chainErrors.js";
import { HUB_ERROR_STATUS } from "../../src/hub/errors.js";
import { REGISTRY_ERROR_STATUS } from "../../src/registry/errors.js";

const PARTS: { part: string; page: string; status: Readonly<Record<string, number>> }[] = [
  { part: "registry", page: "docs/registry.md", status: REGISTRY_ERROR_STATUS },
  { part: "hub", page: "docs/hub.md", status: HUB_ERROR_STATUS },
  { part: "client API", page: "docs/clientapi.md", status: CLIENT_API_ERROR_STATUS },
  { part: "devchain", page: "docs/devchain.md", status: DEVCHAIN_ERROR_STATUS },
];

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());

/**
 * The rows of the page's error code tables, by code: a Markdown table whose header has a "Code" and
 * a "Status" column; a row's code is its code cell written as one `code` span (rows with another code
 * cell, such as an empty one, give none), its statuses every three-digit number in its status cell.
 */
function documentedCodes(page: string): Map<string, number[]> {
  const codes = new Map<string, number[]>();
  const lines = page.split("\n");
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.trimStart().startsWith("|") || !/^\s*\|[\s|:-]+\|\s*$/.test(lines[i + 1]!)) continue;
    const header = cellsOf(lines[i]!).map((cell) => cell.toLowerCase());
    const codeColumn = header.indexOf("code");
    const statusColumn = header.indexOf("status");
    if (codeColumn < 0 || statusColumn < 0) continue;
    for (let row = i + 2; row < lines.length && lines[row]!.trimStart().startsWith("|"); row++) {
      const cells = cellsOf(lines[row]!);
      const code = /^`([^`]+)`$/.exec(cells[codeColumn] ?? "")?.[1];
      if (code === undefined) continue;
      const statuses = [...(cells[statusColumn] ?? "").matchAll(/\b\d{3}\b/g)].map(Number);
      codes.set(code, [...(codes.get(code) ?? []), ...statuses]);
    }
  }
  return codes;
}

describe("the docs pages give every error code", () => {
  for (const { part, page, status } of PARTS) {
    describe(`${part}: ${page}`, () => {
      const documented = documentedCodes(readFileSync(page, "utf8"));

      it("has a row for every code the part defines", () => {
        const missing = Object.keys(status).filter((code) => !documented.has(code));
        assert.deepEqual(missing, [], `${page} lacks a row for ${missing.join(", ")}`);
      });

      it("gives each code the status the part answers", () => {
        const wrong = Object.entries(status)
          .filter(([code, answered]) => documented.has(code) && !documented.get(code)!.includes(answered))
          .map(
            ([code, answered]) =>
              `${code}: answered ${answered}, documented ${documented.get(code)!.join(", ")}`,
          );
        assert.deepEqual(wrong, []);
      });

      it("gives no code the part does not define", () => {
        const unknown = [...documented.keys()].filter((code) => !Object.hasOwn(status, code));
        assert.deepEqual(unknown, [], `${page} gives codes ${part} does not define: ${unknown.join(", ")}`);
      });
    });
  }
});
