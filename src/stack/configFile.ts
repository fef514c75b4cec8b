/**
 * `castnet.config.json`: any `start` option by its flag name, and the per-part settings that have no
 * flag, in sections named after the parts. Flags beat the environment, which beats the file, which
 * beats the defaults (options.ts applies that order).
 */
import { closeSync, fstatSync, openSync, readFileSync, type Stats } from "node:fs";
import type { KeyRequestLimits, PowerBadgeRule } from "../clientapi/index.js";
import type { PageLimits } from "../explorer/index.js";
import type { TransferLimits } from "../registry/index.js";
import { UsageError } from "../usageError.js";

export const DEFAULT_CONFIG_FILE = "castnet.config.json";

/** The settings each part takes beyond the flags, passed to its createX as they are. */
export interface PartSettings {
  registry: { reservedNames?: string[]; rateLimit?: TransferLimits | false };
  hub: { mergesPerUnit?: number };
  api: {
    sponsorCost?: number;
    powerBadgeRule?: Partial<PowerBadgeRule>;
    deeplinkScheme?: string;
    keyRequestLimits?: Partial<KeyRequestLimits>;
    pageLimits?: Partial<PageLimits>;
  };
}

type Check = (value: unknown) => boolean;
const isNumber: Check = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0;
const numbers =
  (...keys: string[]): Check =>
  (v) =>
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    Object.entries(v).every(([k, n]) => keys.includes(k) && isNumber(n));

/** Each section's settings and what a value must be, as the part's createX option of the same name. */
const SECTIONS: Record<keyof PartSettings, Record<string, [Check, string]>> = {
  registry: {
    reservedNames: [(v) => Array.isArray(v) && v.every((n) => typeof n === "string"), "a list of names"],
    rateLimit: [
      (v) => v === false || numbers("perFidPerHour", "perIpPerHour")(v),
      "false or {perFidPerHour, perIpPerHour}",
    ],
  },
  hub: { mergesPerUnit: [isNumber, "a number"] },
  api: {
    sponsorCost: [isNumber, "a number"],
    powerBadgeRule: [numbers("minReactors", "windowDays"), "{minReactors, windowDays}"],
    deeplinkScheme: [(v) => typeof v === "string" && /^[a-z][a-z0-9+.-]*$/.test(v), "a URL scheme"],
    keyRequestLimits: [numbers("perFidPerHour", "perAddressPerHour"), "{perFidPerHour, perAddressPerHour}"],
    pageLimits: [numbers("perClientPerHour", "burst"), "{perClientPerHour, burst}"],
  },
};

export interface ConfigFile {
  /** The file read; undefined when there was none. */
  path: string | undefined;
  /**
   * Why someone else could have written the file, for the default file found in the working
   * directory ("another user owns it (uid 1001)"); undefined for a named one, or one only this user
   * can write.
   */
  othersCouldWrite: string | undefined;
  /** Start options by flag name, as the strings a flag would give. */
  options: Record<string, string>;
  parts: PartSettings;
}

const EMPTY: ConfigFile = {
  path: undefined,
  othersCouldWrite: undefined,
  options: {},
  parts: { registry: {}, hub: {}, api: {} },
};

/**
 * Reads the file at `path`; a missing default file is no file, a missing named one is an error.
 * `optionNames` are the start options a file may set.
 */
export function readConfigFile(path: string, named: boolean, optionNames: readonly string[]): ConfigFile {
  let data: unknown;
  let stat: Stats;
  try {
    // Who could write it is read from the file that is read, not from whatever the path names later.
    const fd = openSync(path, "r");
    try {
      stat = fstatSync(fd);
      data = JSON.parse(readFileSync(fd, "utf8"));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") {
      if (named) throw new UsageError(`--config: there is no ${path}`);
      return EMPTY;
    }
    throw new UsageError(`${path}: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new UsageError(`${path} must hold one JSON object`);
  const config: ConfigFile = {
    path,
    othersCouldWrite: named ? undefined : othersCouldWrite(stat),
    options: {},
    parts: { registry: {}, hub: {}, api: {} },
  };
  for (const [key, value] of Object.entries(data)) {
    if (key in SECTIONS) {
      config.parts[key as keyof PartSettings] = section(path, key as keyof PartSettings, value);
    } else if (optionNames.includes(key) && key !== "config") {
      if (!["string", "number", "boolean"].includes(typeof value) && !Array.isArray(value))
        throw new UsageError(`${path}: "${key}" must be a string, a number or a list`);
      config.options[key] = Array.isArray(value) ? value.join(",") : String(value);
    } else {
      throw new UsageError(`${path}: unknown setting "${key}" (see castnet start --help and docs/cli.md)`);
    }
  }
  return config;
}

function section<K extends keyof PartSettings>(path: string, part: K, value: unknown): PartSettings[K] {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(`${path}: "${part}" must be an object`);
  for (const [key, setting] of Object.entries(value)) {
    const rule = SECTIONS[part][key];
    if (!rule) throw new UsageError(`${path}: unknown setting "${part}.${key}"`);
    if (!rule[0](setting)) throw new UsageError(`${path}: "${part}.${key}" must be ${rule[1]}`);
  }
  return value as PartSettings[K];
}

/** Why a user other than this one (or root) could have written a file with `stat`, if one could. */
function othersCouldWrite(stat: Stats): string | undefined {
  const uid = process.geteuid?.();
  if (uid !== undefined && stat.uid !== uid && stat.uid !== 0)
    return `another user owns it (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return `other users can write it (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}
