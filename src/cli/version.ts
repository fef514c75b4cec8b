import { readFileSync } from "node:fs";

/** castnet's version, from its package.json. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
