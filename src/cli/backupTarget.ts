/**
 * Where `castnet backup` writes: copies of the registry's server key and the client API's cursor
 * key, so only their owner may read them or choose what they are written over. The directory is
 * this user's and private before anything is copied into it, and every copy is a new file, made
 * 0600 by the call that creates it.
 */
import {
  closeSync,
  constants,
  fstatSync,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { CliError } from "./http/request.js";
import { UsageError } from "../usageError.js";

const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;

/**
 * Makes `dir` (its parents too) if missing, or takes an existing empty one, and returns its mode when
 * it had to make it private. Refused: a symbolic link (the copies would land wherever it points), a
 * directory of another user, root included (its owner could swap a copy for a link to any file
 * between its creation and SQLite opening it), and a directory with anything in it.
 */
export function openBackupDirectory(dir: string): number | undefined {
  mkdirSync(dirname(dir), { recursive: true, mode: PRIVATE_DIRECTORY });
  try {
    mkdirSync(dir, { mode: PRIVATE_DIRECTORY });
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") throw error;
  }
  let fd: number;
  try {
    // The directory itself, never what a link in its place points at: its mode and owner are checked
    // and changed on this descriptor, not on whatever the path names a moment later.
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Linux answers ENOTDIR, not ELOOP, for a link opened with both flags.
    if (code !== "ELOOP" && code !== "ENOTDIR") throw error;
    if (lstatSync(dir).isSymbolicLink())
      throw new CliError(`${dir} is a symbolic link: back up into a directory of your own`);
    throw new UsageError(`${dir} is not a directory`);
  }
  try {
    const stat = fstatSync(fd);
    const uid = process.geteuid?.();
    if (uid !== undefined && stat.uid !== uid)
      throw new CliError(
        `${dir} belongs to another user (uid ${stat.uid}): back up into a directory of your own`,
      );
    const mode = stat.mode & 0o777;
    // Made private before it is read: whatever others could still add is then already there.
    if ((mode & ~PRIVATE_DIRECTORY) !== 0) fchmodSync(fd, PRIVATE_DIRECTORY);
    if (readdirSync(dir).length > 0)
      throw new UsageError(`${dir} is not empty: back up into a new directory`);
    return (mode & ~PRIVATE_DIRECTORY) !== 0 ? mode : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates `name` in the backup directory, 0600, and returns its descriptor. Whatever is already at
 * that name (a file, or a link to one elsewhere) is refused rather than written over or through.
 */
export function createBackupFile(dir: string, name: string): number {
  const path = join(dir, name);
  try {
    return openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      PRIVATE_FILE,
    );
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "EEXIST" && code !== "ELOOP") throw error;
    throw new CliError(
      `${path} appeared during the backup: another process writes into ${dir}; ` +
        "the backup is incomplete and nothing was written through it",
    );
  }
}
