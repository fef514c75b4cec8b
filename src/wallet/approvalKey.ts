/**
 * The approval key: a random secret in `<data dir>/approval.key` (0600 in the 0700 data directory)
 * that the approval page asks for before it lets anyone use the keystore. Loopback is shared by every
 * local user and, behind a reverse proxy, by every client of the proxy; reading a file only the data
 * directory's owner can read is what proves a caller is the keystore's owner. The CLI reads the key
 * and prints it in the approval link it gives that owner.
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

const FILE = "approval.key";
const KEY = /^[0-9a-f]{64}$/;

export const approvalKeyPath = (dataDir: string) => join(dataDir, FILE);

/**
 * The data directory's approval key, made on first use. A key file others could read (left 0644 by a
 * copy or a permissive umask) may have been read: it is replaced by a fresh key. A link, or a file of
 * another user, is refused.
 */
export function ensureApprovalKey(dataDir: string): string {
  const path = approvalKeyPath(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (readApprovalKey(dataDir) === undefined && existsSync(path)) {
    const stat = lstatSync(path);
    const ours = process.getuid === undefined || stat.uid === process.getuid();
    if (!stat.isFile() || !ours)
      throw new Error(
        `${path} is not castnet's approval key (a link, or another user's file): remove it and start again`,
      );
    unlinkSync(path);
  }
  try {
    const fd = openSync(
      path,
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
  const key = readApprovalKey(dataDir);
  if (key === undefined) throw new Error(`${path} is not castnet's approval key: delete it and start again`);
  return key;
}

/**
 * Removes an approval key file that others could read (it may have been read; the next start that
 * offers the keystore makes a fresh one). Returns whether it did.
 */
export function retireExposedApprovalKey(dataDir: string): boolean {
  const path = approvalKeyPath(dataDir);
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return false;
  }
  const ours = process.getuid === undefined || stat.uid === process.getuid();
  if (!stat.isFile() || !ours || (stat.mode & 0o077) === 0) return false;
  unlinkSync(path);
  return true;
}

/** The approval key, or undefined where there is none usable (missing, a link, readable by others, or not a key). */
export function readApprovalKey(dataDir: string): string | undefined {
  const path = approvalKeyPath(dataDir);
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return undefined;
  }
  if (!stat.isFile() || (stat.mode & 0o077) !== 0) return undefined;
  if (process.getuid !== undefined && stat.uid !== process.getuid()) return undefined;
  const key = readFileSync(path, "utf8").trim();
  return KEY.test(key) ? key : undefined;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether `given` is the key, compared as digests in constant time so that neither content nor length leaks. */
export function isApprovalKey(expected: string, given: string | undefined): boolean {
  return given !== undefined && timingSafeEqual(digest(expected), digest(given));
}
