import type { UserNameProof } from "../generated/username_proof.js";
import { HubError } from "../errors.js";
import { fromBase64Json, fromHexJson, fromHexOrBase64Json, fromUtf8Json } from "./bytes.js";
import { allUserNameTypeNames } from "./enums.js";
import { isJsonObject, jsonEnum, jsonUint } from "./parseOnChainEvent.js";

/** JSON → UserNameProof; accepts either profile's type names, and a hex (0x) or base64 signature. */
export function parseUserNameProof(json: unknown): UserNameProof {
  if (!isJsonObject(json)) throw new HubError("bad_request.parse_failure", "userNameProof must be an object");
  return {
    timestamp: jsonUint(json.timestamp, "timestamp"),
    name: fromUtf8Json(json.name, "name"),
    // Old docs show owner as base64; every real hub writes hex.
    owner:
      typeof json.owner === "string" && !json.owner.startsWith("0x") && json.owner.length !== 40
        ? fromBase64Json(json.owner, "owner")
        : fromHexJson(json.owner, "owner"),
    signature: fromHexOrBase64Json(json.signature, "signature"),
    fid: jsonUint(json.fid, "fid"),
    type: jsonEnum(allUserNameTypeNames(), json.type, "type"),
  };
}
