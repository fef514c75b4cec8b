/**
 * The data directory a command uses when none is named (`--data-dir`, `CASTNET_DATA_DIR`): the
 * nearest `.castnet` folder from the working directory up, as git finds its repository, so that a
 * command run anywhere inside a project uses the project's stack and keystore; else the user's own,
 * `$XDG_DATA_HOME/castnet` (`~/.local/share/castnet`), so that a command run from any other folder
 * (a global install) finds the stack started from any other folder. `start` and every client
 * command find it the same way.
 */
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";

/** How help texts name the data directory castnet finds. */
export const DEFAULT_DATA_DIR = "the nearest .castnet here or above, else $XDG_DATA_HOME/castnet";

export interface FoundDataDir {
  path: string;
  /**
   * Why this one, when it is not `./.castnet`: said to the user, who may have expected that one
   * (undefined for `./.castnet`).
   */
  why: string | undefined;
}

const isDirectory = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

export function findDataDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): FoundDataDir {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, ".castnet");
    if (isDirectory(candidate))
      return { path: candidate, why: dir === cwd ? undefined : `the nearest .castnet above ${cwd}` };
    if (dirname(dir) === dir) break;
  }
  // The XDG base directory rules ignore a relative XDG_DATA_HOME.
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".local", "share");
  return { path: join(base, "castnet"), why: `per-user, as there is no .castnet in ${cwd} or above it` };
}
