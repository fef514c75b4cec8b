/**
 * Which stack a client command talks to, and which keystore it uses. The data directory is the one
 * named (`--data-dir`, `CASTNET_DATA_DIR`) or found (src/stack/dataDir.ts); each part's URL is the
 * one given (`--hub-url`, `CASTNET_HUB_URL`, …), else the one the run file of the castnet running
 * on that directory lists (src/stack/runFile.ts), else `castnet start`'s default port; and the
 * network messages are signed for is that castnet's unless given. So a stack started on other
 * ports (`--port-base`, `--ports auto`) or another network is found by its data directory alone.
 *
 * The keystore's accounts are fids of one stack: the stack running on its data directory. A command
 * that uses the keystore with another stack would register a fid on one and keep it for the other,
 * or act for a fid the other does not know; that is refused (StackChoice.keystoreRefusal).
 */
import { resolve } from "node:path";
import { isLoopback } from "../http/operator.js";
import { findDataDir } from "../stack/dataDir.js";
import { type Network, START_OPTIONS } from "../stack/options.js";
import { type PartName, PARTS } from "../stack/parts.js";
import { runningStack } from "../stack/runFile.js";

/** A part's URL given on the command line or in the environment, and the flag or variable that gave it. */
export interface GivenUrl {
  url: string;
  from: string;
}

export interface StackChoice {
  dataDir: string;
  /** The URL of each part the command calls. */
  urls: Partial<Record<PartName, string>>;
  /** The network of the castnet running on `dataDir`: the one to sign messages for, unless given. */
  network: Network | undefined;
  /** Wei the castnet running on `dataDir` gives each account of its keystore (`--dev-balance`). */
  devBalance: bigint | undefined;
  /** What the user may not expect (a data directory other than ./.castnet, a stack on other ports): stderr lines. */
  notes: string[];
  /** Why this command may not use the keystore of `dataDir` with these URLs; undefined when it may. */
  keystoreRefusal: string | undefined;
}

/** Where `castnet start` serves a part by default. */
export function defaultUrl(part: PartName): string {
  return `http://127.0.0.1:${START_OPTIONS[`${part}-port`]!.default!}`;
}

/** A URL as a comparable key: loopback names alike, the default port written out, no trailing slash. */
function urlKey(value: string): string {
  if (!URL.canParse(value)) return value;
  const url = new URL(value);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const host = hostname === "localhost" || isLoopback(hostname) ? "loopback" : hostname;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.protocol}//${host}:${port}${url.pathname.replace(/\/+$/, "")}`;
}

export function chooseStack(
  parts: readonly PartName[],
  given: { dataDir: string | undefined; urls: Partial<Record<PartName, GivenUrl>> },
): StackChoice {
  const notes: string[] = [];
  let dataDir: string;
  if (given.dataDir !== undefined) dataDir = resolve(given.dataDir);
  else {
    const found = findDataDir();
    dataDir = found.path;
    if (found.why !== undefined) notes.push(`data directory ${dataDir} (${found.why})`);
  }
  const running = runningStack(dataDir);

  const urls: Partial<Record<PartName, string>> = {};
  const fromRunFile: PartName[] = [];
  for (const part of parts) {
    const own = given.urls[part]?.url;
    const listed = running?.urls[part];
    if (own === undefined && listed !== undefined) fromRunFile.push(part);
    urls[part] = own ?? listed ?? defaultUrl(part);
  }
  if (running !== undefined && fromRunFile.some((part) => urlKey(urls[part]!) !== urlKey(defaultUrl(part))))
    notes.push(
      `talking to the castnet running on ${dataDir} (process ${running.pid}): ` +
        fromRunFile.map((part) => `${part} ${urls[part]}`).join(", "),
    );
  return {
    dataDir,
    urls,
    network: running?.network,
    devBalance:
      running !== undefined && /^\d{1,40}$/.test(running.devBalance) ? BigInt(running.devBalance) : undefined,
    notes,
    keystoreRefusal: keystoreRefusal(parts, given.urls, dataDir, running),
  };
}

function keystoreRefusal(
  parts: readonly PartName[],
  given: Partial<Record<PartName, GivenUrl>>,
  dataDir: string,
  running: ReturnType<typeof runningStack>,
): string | undefined {
  if (running === undefined) {
    // Every URL given: a stack elsewhere (another machine, a test's) that this keystore serves.
    const guessed = parts.filter((part) => given[part] === undefined);
    if (guessed.length === 0) return undefined;
    return (
      `castnet is not running on ${dataDir}, whose keystore this command uses: start it there ` +
      `(castnet start --data-dir ${dataDir}), or name the data directory of the castnet that runs ` +
      "(--data-dir, CASTNET_DATA_DIR)"
    );
  }
  for (const part of parts) {
    const own = given[part];
    const listed = running.urls[part];
    if (own === undefined || listed === undefined || urlKey(own.url) === urlKey(listed)) continue;
    return (
      `the keystore of ${dataDir} keeps the accounts of the castnet running there (process ${running.pid}), ` +
      `whose ${PARTS[part].title} is ${listed}, not ${own.url} (${own.from}): leave out ${own.from}, ` +
      "or name the data directory of the stack at that URL (--data-dir, CASTNET_DATA_DIR)"
    );
  }
  return undefined;
}
