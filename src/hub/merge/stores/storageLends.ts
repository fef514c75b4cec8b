/**
 * Storage loans (docs/reference/storage-lending.md §3–§5): a fid lends units of one cohort to
 * another, one loan per lender and borrower, the later loan replacing the earlier whatever its unit
 * type. A loan of no units takes the units back and is deleted as it merges. Loans are never pruned
 * for the store's limit nor revoked with their key: they stand until their lender replaces them.
 */
import { HubError } from "../../../protocol/errors.js";
import { MessageType, SocialNetwork, type MessageData } from "../../../protocol/generated/message.js";
import { fidKey, StoreType } from "../../data/keys.js";
import { cohortOf, type StorageUnits } from "../limits.js";
import type { IndexColumns } from "./rows.js";
import { lastWriteWins, type StoreSpec } from "./spec.js";

/** On mainnet only fids that rented this many units of a cohort may lend units of it. */
const MAINNET_LENDER_UNITS = 1000;

function insufficientStorage(): HubError {
  return new HubError("bad_request.validation_failure", "insufficient storage");
}

/**
 * A lender keeps one unit of the cohort it lends, rented and not lent, counting every loan it has
 * standing (the one this message replaces too): with none left it could not send the loan that
 * takes its units back. What it borrowed it cannot lend on.
 */
function loanError(storage: StorageUnits, data: MessageData, network: SocialNetwork): HubError | undefined {
  const body = data.lendStorageBody!;
  const cohort = cohortOf(body.unitType);
  const rented = cohort === undefined ? 0 : storage.purchased[cohort];
  if (network === SocialNetwork.MAINNET && rented < MAINNET_LENDER_UNITS) return insufficientStorage();
  const spare = cohort === undefined ? 0 : rented - storage.lent[cohort];
  return spare < body.numUnits + 1 ? insufficientStorage() : undefined;
}

export const storageLends: StoreSpec = {
  store: StoreType.STORAGE_LENDS,
  addType: MessageType.LEND_STORAGE,
  removeType: undefined,
  setKey: (data: MessageData) => fidKey(data.lendStorageBody!.toFid),
  ranksAbove: lastWriteWins,
  index(data: MessageData): IndexColumns {
    const borrower = data.lendStorageBody!.toFid;
    return { kind: null, target: fidKey(borrower), targetFid: borrower, mentions: [] };
  },
  standing: true,
  storageCheck: loanError,
  movesStorage(data: MessageData) {
    const borrower = data.lendStorageBody?.toFid;
    return borrower === undefined || borrower === data.fid ? [data.fid] : [data.fid, borrower];
  },
  prunedOnMerge: (data: MessageData) => data.lendStorageBody!.numUnits === 0,
};
