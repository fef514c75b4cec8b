/**
 * The four parts as users address them. In code each part has one identifier, its folder
 * (registry, hub, clientapi, devchain), which is also its log `part` field and its metrics prefix;
 * users type a short word for it: the stem of its flags (`--api-port`, `--chain-url`) and
 * environment variables, the values of `--only`, the keys of the config file, the run file and the
 * library's `urls` and `clients`, and the name of its SQLite file. This table is where the two meet.
 */
export type PartName = "registry" | "hub" | "api" | "chain";

export interface PartInfo {
  /** Its folder under src/, and its identifier in logs and metrics. */
  module: "registry" | "hub" | "clientapi" | "devchain";
  /** How a sentence names it. */
  title: string;
  /** Which other parts it talks to. */
  needs: readonly PartName[];
}

export const PARTS: Readonly<Record<PartName, PartInfo>> = {
  chain: { module: "devchain", title: "devchain", needs: [] },
  registry: { module: "registry", title: "registry", needs: ["chain"] },
  hub: { module: "hub", title: "hub", needs: ["chain", "registry"] },
  api: { module: "clientapi", title: "client API", needs: ["chain", "hub"] },
};

export const PART_NAMES: readonly PartName[] = ["registry", "hub", "api", "chain"];

/** A part named by its word or its module (`--only clientapi` is `--only api`). */
export function partNamed(name: string): PartName | undefined {
  if (Object.hasOwn(PARTS, name)) return name as PartName;
  return PART_NAMES.find((part) => PARTS[part].module === name);
}
