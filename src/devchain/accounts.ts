/** An account: what a mined fid holds across the three registries. */
import { getAddress } from "viem";
import { toHex } from "../protocol/hex.js";
import type { Account } from "../interfaces/chain.js";
import { minedFid } from "./idRegistry.js";
import { activeSigners } from "./keyRegistry.js";
import { activeStorageUnits } from "./storageRegistry.js";
import type { DevchainDb } from "./tables.js";

export async function account(db: DevchainDb, fid: number, nowSeconds: number): Promise<Account | undefined> {
  const row = await minedFid(db, fid);
  if (!row) return undefined;
  const [signers, storageUnits] = await Promise.all([
    activeSigners(db, fid),
    activeStorageUnits(db, fid, nowSeconds),
  ]);
  return {
    fid,
    custody: getAddress(row.custody),
    recovery: getAddress(row.recovery),
    signers: signers.map((s) => ({
      key: toHex(s.key),
      keyType: s.keyType,
      metadataType: s.metadataType,
      metadata: toHex(s.metadata),
    })),
    storageUnits,
  };
}
