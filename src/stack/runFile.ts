/**
 * `<data dir>/castnet.run.json`: which process serves the stack of this data directory, and where.
 * `castnet start` writes it once the parts listen and removes it when they stop; a file left by a
 * process that died names a process that is gone, and counts as nothing.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface RunInfo {
  pid: number;
  urls: Record<string, string>;
  database: "sqlite" | "postgres";
}

const FILE = "castnet.run.json";

export function writeRunFile(dataDir: string, info: RunInfo): () => void {
  const path = join(dataDir, FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  return () => rmSync(path, { force: true });
}

/** The stack running on `dataDir`, if its process is alive. */
export function runningStack(dataDir: string): RunInfo | undefined {
  let info: RunInfo;
  try {
    info = JSON.parse(readFileSync(join(dataDir, FILE), "utf8")) as RunInfo;
  } catch {
    return undefined;
  }
  if (!Number.isSafeInteger(info.pid)) return undefined;
  try {
    process.kill(info.pid, 0);
    return info;
  } catch (error) {
    // EPERM: alive, but another user's process.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? info : undefined;
  }
}
