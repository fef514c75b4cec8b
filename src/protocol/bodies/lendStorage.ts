import { LendStorageBody, MessageType } from "../generated/message.js";
import { STORAGE_UNIT_TYPE_NAMES, enumName } from "../json/enums.js";
import { validateLendStorageBody } from "../validation/lendStorage.js";
import type { BodyKind } from "./bodyKind.js";

export interface LendStorageBodyJson {
  toFid: number;
  numUnits: number;
  unitType: string | number;
}

/** A storage loan from the message's fid to `toFid` (docs/reference/storage-lending.md). */
export const lendStorage = {
  field: "lendStorageBody",
  fieldNumber: 18,
  types: [MessageType.LEND_STORAGE],
  validate: validateLendStorageBody,
  render: (body) => ({
    toFid: body.toFid,
    numUnits: body.numUnits,
    unitType: enumName(STORAGE_UNIT_TYPE_NAMES, body.unitType),
  }),
  encode: LendStorageBody.encode,
} satisfies BodyKind<"lendStorageBody", LendStorageBodyJson>;
