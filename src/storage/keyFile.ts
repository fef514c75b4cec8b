/**
 * A random secret kept in a file of the data directory (0600 in the 0700 directory), made on first
 * use: the keystore's approval key and the sign-in relay's key. Reading a file only the data
 * directory's owner can read is what proves a caller is that owner, so a key file others could read
 * is not used, and a link or another user's file is never taken for one.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

const KEY = /^[0-9a-f]{64}$/;

export interface KeyFile {
  path(dataDir: string): string;
  /**
   * The key, made on first use. A key file others could read (left 0644 by a copy or a permissive
   * umask) may have been read: it is replaced by a fresh key. A link, or a file of another user, is refused.
   */
  ensure(dataDir: string): string;
  /** The key, or undefined where there is none usable (missing, a link, readable by others, or not a key). */
  read(dataDir: string): string | undefined;
  /** Removes a key file that others could read (it may have been read); returns whether it did. */
  retireExposed(dataDir: string): boolean;
}

/** The key file `name` of a data directory; `holds` names it in errors ("castnet's approval key"). */
export function keyFile(name: string, holds: string): KeyFile {
  const path = (dataDir: string) => join(dataDir, name);
  const read = (dataDir: string): string | undefined => {
    const stat = statOf(path(dataDir));
    if (stat === undefined || !stat.isFile() || (stat.mode & 0o077) !== 0 || !ownedHere(stat.uid))
      return undefined;
    const key = readFileSync(path(dataDir), "utf8").trim();
    return KEY.test(key) ? key : undefined;
  };
  return {
    path,
    read,
    ensure(dataDir) {
      const file = path(dataDir);
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      if (read(dataDir) === undefined && existsSync(file)) {
        const stat = lstatSync(file);
        if (!stat.isFile() || !ownedHere(stat.uid))
          throw new Error(
            `${file} is not ${holds} (a link, or another user's file): remove it and start again`,
          );
        unlinkSync(file);
      }
      try {
        const fd = openSync(
          file,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
          0o600,
        );
        try {
          writeSync(fd, `${randomBytes(32).toString("hex")}\n`);
        } finally {
          closeSync(fd);
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const key = read(dataDir);
      if (key === undefined) throw new Error(`${file} is not ${holds}: delete it and start again`);
      return key;
    },
    retireExposed(dataDir) {
      const stat = statOf(path(dataDir));
      if (stat === undefined || !stat.isFile() || !ownedHere(stat.uid) || (stat.mode & 0o077) === 0)
        return false;
      unlinkSync(path(dataDir));
      return true;
    },
  };
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether `given` is the key, compared as digests in constant time so that neither content nor length leaks. */
export function isKey(expected: string, given: string | undefined): boolean {
  return given !== undefined && timingSafeEqual(digest(expected), digest(given));
}

function statOf(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

const ownedHere = (uid: number) => process.getuid === undefined || uid === process.getuid();
