/**
 * The checks of a storage loan that need no state (docs/reference/storage-lending.md §2), with the
 * successor node's sentences. Whether the lender has the units to lend is state: the hub's merge
 * checks it (src/hub/merge/stores/storageLends.ts).
 */
import type { HubError } from "../errors.js";
import { StorageUnitType, type LendStorageBody, type MessageData } from "../generated/message.js";
import { currentProtocolTime } from "../time.js";
import { invalid } from "./errors.js";

/** The most units one loan may carry. */
export const MAX_LEND_UNITS = 5000;
/**
 * How far behind the hub's clock a loan may be dated: withdrawals are deleted as they merge, so an
 * older loan replayed later would find nothing newer to lose to.
 */
const MAX_PAST_SECONDS = 600;

export function validateLendStorageBody(
  body: LendStorageBody,
  data: MessageData,
  nowMs: number,
): HubError | undefined {
  if (data.timestamp < currentProtocolTime(nowMs) - MAX_PAST_SECONDS) {
    return invalid("timestamp more than 10 mins in the past");
  }
  if (StorageUnitType[body.unitType] === undefined) return invalid("invalid storage unit type");
  if (body.numUnits > MAX_LEND_UNITS) return invalid("num storage units too large");
  return undefined;
}
