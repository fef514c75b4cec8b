/**
 * `<data dir>/castnet.run.json`: which process serves the stack of this data directory, and where.
 * `castnet start` writes it once the parts listen and removes it when they stop; a file left by a
 * process that died names a process that is gone, and counts as nothing. Every client command reads
 * it to talk to the stack of its data directory (src/cli/whichStack.ts).
 *
 * Beside it, `castnet.last-run.json` outlives the run: the database the last start used, so that
 * `backup` and `reset` of a stopped PostgreSQL stack know its data is not in the directory.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Network } from "./options.js";
import type { PartName } from "./parts.js";

export interface RunInfo {
  pid: number;
  /** Base URL of every part of the stack: those the process serves and those it uses elsewhere (--only). */
  urls: Partial<Record<PartName, string>>;
  /** host:port of the hub's gRPC API, when the process serves the hub. */
  hubGrpc?: string;
  /** The network the hub takes messages for: what the CLI signs them for. */
  network: Network;
  /** Wei the stack gives each account of its keystore (`--dev-balance`), in decimal: `account create` gives it too. */
  devBalance: string;
  database: "sqlite" | "postgres";
}

const FILE = "castnet.run.json";
const LAST_RUN = "castnet.last-run.json";

/**
 * The data directories whose run file a stack of this process wrote: a run file naming this
 * process but not listed here was left by an earlier process that had the same pid (a container
 * restarted after a crash), and counts as nothing.
 */
const held = new Set<string>();

/** A new file only its owner reads, whatever mode the one it replaces had. */
function writePrivate(path: string, value: unknown): void {
  rmSync(path, { force: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}

export function writeRunFile(dataDir: string, info: RunInfo): () => void {
  const path = join(dataDir, FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writePrivate(path, info);
  writePrivate(join(dataDir, LAST_RUN), { database: info.database });
  held.add(dataDir);
  return () => {
    rmSync(path, { force: true });
    held.delete(dataDir);
  };
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** The stack running on `dataDir`, if its process is alive. */
export function runningStack(dataDir: string): RunInfo | undefined {
  const info = readJson<RunInfo>(join(dataDir, FILE));
  if (info === undefined || !Number.isSafeInteger(info.pid)) return undefined;
  if (info.pid === process.pid) return held.has(dataDir) ? info : undefined;
  try {
    process.kill(info.pid, 0);
    return info;
  } catch (error) {
    // EPERM: alive, but another user's process.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? info : undefined;
  }
}

/** The database of the stack running on `dataDir`, else of the last one that ran there, if known. */
export function lastDatabase(dataDir: string): RunInfo["database"] | undefined {
  return (
    runningStack(dataDir)?.database ?? readJson<Pick<RunInfo, "database">>(join(dataDir, LAST_RUN))?.database
  );
}
