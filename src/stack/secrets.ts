/** What `castnet start` does about secrets before any part runs. */
import { statSync } from "node:fs";
import type { Logger } from "../http/index.js";
import { tightenDirectory } from "../storage/index.js";
import { retireExposedApprovalKey } from "../wallet/approvalKey.js";
import { relayKey } from "./relayKey.js";

/** A file a secret was read from, and what it holds ("admin token", "RPC credentials"). */
export interface SecretFile {
  holds: string;
  path: string;
}

/**
 * A data directory left readable by others (by an older castnet, or a
 * permissive umask) is made private, and a shared secret file is pointed out.
 */
export function secureStart(dataDir: string | undefined, secretFiles: readonly SecretFile[], logger: Logger) {
  if (dataDir !== undefined) {
    const paths = tightenDirectory(dataDir);
    if (paths.length > 0)
      logger.info(
        { paths },
        "tightened the permissions of the data directory so that only its owner reads it",
      );
    if (retireExposedApprovalKey(dataDir))
      logger.warn(
        "removed the keystore's approval key, which other users could read; a fresh one replaces it",
      );
    if (relayKey.retireExposed(dataDir))
      logger.warn("removed the sign-in relay's key, which other users could read; a fresh one replaces it");
  }
  for (const { holds, path } of secretFiles) {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0)
      logger.warn(
        `the ${holds} file ${path} is readable by other users (mode ${mode.toString(8)}); chmod 600 it`,
      );
  }
}
