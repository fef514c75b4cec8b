/**
 * Expected hub JSON derived from the reference client library: its ts-proto `toJSON`, then the
 * reference hub's documented post-processing (docs/reference/hub-http-api.md §5), then the naming profile's
 * spellings. Deliberately generic (walks any object), unlike the production renderer, so the two
 * are independent.
 */
import { bytesToBase58 } from "@farcaster/core";
import type { NamingProfile } from "../../../src/protocol/naming.js";

const HEX_KEYS = new Set([
  "hash",
  "signer",
  "transactionHash",
  "key",
  "owner",
  "to",
  "from",
  "recoveryAddress",
]);
const HEX_OR_BASE58_KEYS = new Set(["address", "blockHash"]);
const ALIASES: Record<string, string> = {
  verificationAddAddressBody: "verificationAddEthAddressBody",
  claimSignature: "ethSignature",
};

function b64ToHex(value: string): string {
  return value === "" ? "" : "0x" + Buffer.from(value, "base64").toString("hex");
}

function b64ToBase58(value: string): string {
  return value === "" ? "" : bytesToBase58(Buffer.from(value, "base64"))._unsafeUnwrap();
}

function hubRewrite(node: unknown): void {
  if (node === null || typeof node !== "object") return;
  const obj = node as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (typeof value === "string" && HEX_KEYS.has(key)) obj[key] = b64ToHex(value);
    else if (typeof value === "string" && key === "name")
      obj[key] = Buffer.from(value, "base64").toString("utf8");
    else if (typeof value === "string" && HEX_OR_BASE58_KEYS.has(key)) {
      obj[key] = obj.protocol === "PROTOCOL_SOLANA" ? b64ToBase58(value) : b64ToHex(value);
    } else if (typeof value === "object") hubRewrite(value);
    const alias = ALIASES[key];
    if (alias !== undefined) obj[alias] = obj[key];
  }
}

function renameForProfile(node: unknown, profile: NamingProfile): unknown {
  if (Array.isArray(node)) return node.map((v) => renameForProfile(v, profile));
  if (node !== null && typeof node === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = renameForProfile(v, profile);
    return out;
  }
  if (typeof node === "string") {
    if (node.startsWith("FARCASTER_NETWORK_")) return `${profile.networkWord}_NETWORK_${node.slice(18)}`;
    if (node === "USERNAME_TYPE_ENS_L1") return profile.nameServiceL1;
  }
  return node;
}

/** Successor-node stamps the reference hub's schema never had; the library emits them as 0. */
function dropZeroSuccessorFields(node: Record<string, unknown>): void {
  for (const key of ["blockNumber", "shardIndex", "timestamp"]) if (node[key] === 0) delete node[key];
}

export function referenceHubJson(libraryJson: unknown, profile: NamingProfile, kind?: "hubEvent"): unknown {
  const copy = JSON.parse(JSON.stringify(libraryJson)) as Record<string, unknown>;
  if (kind === "hubEvent") dropZeroSuccessorFields(copy);
  hubRewrite(copy);
  // Re-serialise so that the aliases (shared objects) become independent copies, as on the wire.
  return renameForProfile(JSON.parse(JSON.stringify(copy)), profile);
}
