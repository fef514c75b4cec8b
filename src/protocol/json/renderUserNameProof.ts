import type { UserNameProof } from "../generated/username_proof.js";
import type { NamingProfile } from "../naming.js";
import { toBase64Json, toHexJson, toUtf8Json } from "./bytes.js";
import { enumName, profileNames } from "./enums.js";

export interface UserNameProofJson {
  /** Unix seconds. */
  timestamp: number;
  name: string;
  owner: string;
  signature: string;
  fid: number;
  type: string | number;
}

export function renderUserNameProof(proof: UserNameProof, profile: NamingProfile): UserNameProofJson {
  return {
    timestamp: proof.timestamp,
    name: toUtf8Json(proof.name),
    owner: toHexJson(proof.owner),
    signature: toBase64Json(proof.signature),
    fid: proof.fid,
    type: enumName(profileNames(profile).userNameType, proof.type),
  };
}
