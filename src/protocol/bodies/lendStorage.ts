import { LendStorageBody } from "../generated/message.js";
import { STORAGE_UNIT_TYPE_NAMES, enumName } from "../json/enums.js";
import type { BodyKind } from "./bodyKind.js";

export interface LendStorageBodyJson {
  toFid: number;
  numUnits: number;
  unitType: string | number;
}

/** Refused (`invalid message type`) as the reference hub refused it: lending needs state kept nowhere here. */
export const lendStorage = {
  field: "lendStorageBody",
  fieldNumber: 18,
  types: [],
  render: (body) => ({
    toFid: body.toFid,
    numUnits: body.numUnits,
    unitType: enumName(STORAGE_UNIT_TYPE_NAMES, body.unitType),
  }),
  encode: LendStorageBody.encode,
} satisfies BodyKind<"lendStorageBody", LendStorageBodyJson>;
