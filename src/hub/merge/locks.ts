/**
 * The lock keys of merge transactions (taken by `serializedTransaction`). Each merge locks what it
 * may change: the fids of its messages (and, for merges that reach across fids, the address or
 * name they compete for), so that two hub processes on one database serialise merges of the same
 * fid.
 */
import { blake3_20 } from "../../protocol/hash.js";

// Distinct high bits per kind keep hub keys apart from each other and from the int4 hashtext()
// space the other parts' locks use: a tag in the top 23 bits of the 63, the value in the low 40.
const FID_LOCKS = 0x48_55_01n << 40n;
const NAME_LOCKS = 0x48_55_02n << 40n;
const FOLLOWER_LOCKS = 0x48_55_03n << 40n;

export function fidLock(fid: number): bigint {
  return FID_LOCKS + BigInt(fid);
}

/** For names and addresses that several fids compete for. */
export function nameLock(key: Uint8Array): bigint {
  const digest = blake3_20(key);
  let value = 0n;
  for (let i = 0; i < 5; i++) value = (value << 8n) | BigInt(digest[i]!);
  return NAME_LOCKS + value;
}

/** One per follower (chain, registry), so that only one process at a time advances it. */
export function followerLock(id: number): bigint {
  return FOLLOWER_LOCKS + BigInt(id);
}
