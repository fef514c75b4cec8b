/**
 * Databases hold secrets (the registry's server key, the client API's cursor key), so only their
 * owner may read them, whatever the umask: directories 0700, database files 0600.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";

const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;
/** A database and the files SQLite keeps beside it. */
const SQLITE_FILE = /\.sqlite(?:-wal|-shm|-journal)?$/;

/**
 * Makes the directory of a new SQLite file and the file itself before SQLite opens it. SQLite gives
 * the -wal and -shm files the mode of the main file, so they are private too. An existing file keeps
 * its mode: `tightenDirectory` repairs old data directories.
 */
export function createPrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIRECTORY });
  closeSync(openSync(path, "a", PRIVATE_FILE));
}

/**
 * Makes `dir` (created if missing) 0700 and every SQLite file directly in it 0600, where they allowed
 * more. Other files are left alone: the directory may be one the operator shares with other things.
 * Returns the paths it changed.
 */
export function tightenDirectory(dir: string): string[] {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY });
  const changed = tighten(dir, PRIVATE_DIRECTORY) ? [dir] : [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (SQLITE_FILE.test(name) && lstatSync(path).isFile() && tighten(path, PRIVATE_FILE)) changed.push(path);
  }
  return changed;
}

function tighten(path: string, mode: number): boolean {
  if ((lstatSync(path).mode & 0o777 & ~mode) === 0) return false;
  chmodSync(path, mode);
  return true;
}
