/**
 * The approval key: a random secret in `<data dir>/approval.key` (src/storage/keyFile.ts) that the
 * approval page asks for before it lets anyone use the keystore. Loopback is shared by every local
 * user and, behind a reverse proxy, by every client of the proxy; reading a file only the data
 * directory's owner can read is what proves a caller is the keystore's owner. The CLI reads the key
 * and prints it in the approval link it gives that owner.
 */
import { isKey, keyFile } from "../storage/keyFile.js";

const approvalKey = keyFile("approval.key", "castnet's approval key");

export const ensureApprovalKey = approvalKey.ensure;
export const retireExposedApprovalKey = approvalKey.retireExposed;
export const readApprovalKey = approvalKey.read;
export const isApprovalKey = isKey;
