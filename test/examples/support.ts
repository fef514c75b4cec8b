/** Reading the README's examples: its fenced blocks, and the lines it shows as patterns. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

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
