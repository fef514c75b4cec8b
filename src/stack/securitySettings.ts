/**
 * The start settings that decide who may call what, and where castnet keeps and sends its secrets.
 * A castnet.config.json castnet finds in the working directory may have been written by another
 * user of the machine (a shared checkout, a directory under /tmp): castnet takes from such a file
 * none of the settings that open it up, and the start banner names every security setting in force
 * and where it came from.
 */
import { isLoopback } from "../http/operator.js";
import type { ConfigFile } from "./configFile.js";
import { UsageError } from "../usageError.js";

/**
 * Start options that loosen a rule of docs/security.md: who reaches the parts (`host` beyond
 * loopback, `allowed-hosts`), whose pages may call operator routes, who may move names, an operator
 * token its writer would know, where the databases and the keystore live, the parts the admin token
 * is sent to, the TLS key of the hub's gRPC port, and the bounds on requests and connections.
 */
const LOOSENING_OPTIONS = [
  "host",
  "allowed-hosts",
  "trusted-origins",
  "registry-admin",
  "admin-token",
  "admin-token-file",
  "data-dir",
  "registry-url",
  "hub-url",
  "chain-url",
  "hub-grpc-tls-cert",
  "hub-grpc-tls-key",
  "request-timeout",
  "headers-timeout",
  "idle-timeout",
  "max-connections",
] as const;

/** Per-part settings that lift a limit: the registry's transfer limits, a fid's storage, key requests. */
const LOOSENING_PART_SETTINGS = [
  ["registry", "rateLimit"],
  ["hub", "mergesPerUnit"],
  ["api", "keyRequestLimits"],
] as const;

/** The options the banner reports besides those: they tighten a rule (submits need credentials). */
const OTHER_SECURITY_OPTIONS = ["rpc-auth", "rpc-auth-file"] as const;

/** Options whose value is a secret: shown as `(set)`. */
const SECRETS: ReadonlySet<string> = new Set(["admin-token", "rpc-auth"]);

/** A security setting not at its default, as the banner and --print-config show it. */
export interface SecuritySetting {
  setting: string;
  value: string;
  /** The flag, the environment variable or the config file that set it. */
  from: string;
}

const servesLoopbackOnly = (host: string) => host === "localhost" || isLoopback(host);

/** What of `file` loosens a rule, by setting name. */
function looseningIn(file: ConfigFile): string[] {
  const options = LOOSENING_OPTIONS.filter(
    (name) =>
      file.options[name] !== undefined && !(name === "host" && servesLoopbackOnly(file.options[name])),
  );
  const parts = LOOSENING_PART_SETTINGS.filter(
    ([part, key]) => (file.parts[part] as Record<string, unknown>)[key] !== undefined,
  ).map(([part, key]) => `${part}.${key}`);
  return [...options, ...parts];
}

/** Refuses a config file found in the working directory that others could write, when it loosens a rule. */
export function refuseUntrustedLoosening(file: ConfigFile): void {
  if (file.path === undefined || file.othersCouldWrite === undefined) return;
  const loosening = looseningIn(file);
  if (loosening.length === 0) return;
  const named =
    loosening.length === 1 ? loosening[0]! : `${loosening.slice(0, -1).join(", ")} and ${loosening.at(-1)!}`;
  throw new UsageError(
    `${file.path} sets ${named}, but ${file.othersCouldWrite}: castnet takes such settings from a file ` +
      "found in the working directory only when you own it and no one else can write it; " +
      `accept it with --config ${file.path}, or make it yours and chmod go-w it`,
  );
}

/**
 * Every security setting that is not at its default: `source(name)` says where an option's value
 * came from (undefined: its default), `value(name)` what it is.
 */
export function securitySettings(
  source: (name: string) => string | undefined,
  value: (name: string) => string | undefined,
  file: ConfigFile,
): SecuritySetting[] {
  const settings: SecuritySetting[] = [];
  for (const setting of [...LOOSENING_OPTIONS, ...OTHER_SECURITY_OPTIONS]) {
    const from = source(setting);
    if (from !== undefined)
      settings.push({ setting, value: SECRETS.has(setting) ? "(set)" : value(setting)!, from });
  }
  for (const [part, key] of LOOSENING_PART_SETTINGS) {
    const set = (file.parts[part] as Record<string, unknown>)[key];
    if (set !== undefined && file.path !== undefined)
      settings.push({ setting: `${part}.${key}`, value: JSON.stringify(set), from: file.path });
  }
  return settings;
}
