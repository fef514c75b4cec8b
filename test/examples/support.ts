/** Reading the README's examples: its fenced blocks, and the lines it shows as patterns. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { killCastnetProcesses, type RunningCastnet, startCastnetProcess } from "../support/castnetProcess.js";
import { FREE_PORTS } from "../support/ports.js";

export const ROOT = join(import.meta.dirname, "../..");

/** The README from the paragraph that starts with `heading` on. */
export function readmeFrom(heading: string): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  return readme.slice(readme.indexOf(heading));
}

/** The first fenced block of `language` in `text`. */
export function block(text: string, language: string): string {
  return new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(text)![1]!;
}

/** A line the README shows, as a pattern: its numbers and hex strings are those of the README's stack. */
export function shownLine(line: string): RegExp {
  const pattern = line
    .split(/(0x[0-9a-f]+|\d+)/)
    .map((part, i) =>
      i % 2 === 0
        ? part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        : part.startsWith("0x")
          ? `0x[0-9a-f]{${part.length - 2}}`
          : "\\d+",
    );
  return new RegExp(`^${pattern.join("")}$`);
}

/**
 * `castnet start` in another process on free ports for the file's tests, stopped after them, with a
 * scratch directory for the tests' own files.
 */
export function exampleStack(): { dir: () => string; castnet: () => RunningCastnet } {
  let dir: string;
  let castnet: RunningCastnet;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "castnet-example-"));
    castnet = await startCastnetProcess(
      [...FREE_PORTS, "--data-dir", join(dir, "stack"), "--block-time", "0"],
      {
        env: { CASTNET_LOG_LEVEL: "warn" },
      },
    );
  });
  after(async () => {
    await castnet?.stop();
    killCastnetProcesses();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir: () => dir, castnet: () => castnet };
}
