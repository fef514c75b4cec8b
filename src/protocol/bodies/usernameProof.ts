import { MessageType } from "../generated/message.js";
import { UserNameProof } from "../generated/username_proof.js";
import { renderUserNameProof, type UserNameProofJson } from "../json/renderUserNameProof.js";
import { validateUsernameProofBody } from "../validation/usernameProof.js";
import type { BodyKind } from "./bodyKind.js";

/** Its EIP-712 signature is checked after the message's own (validateMessage). */
export const usernameProof = {
  field: "usernameProofBody",
  fieldNumber: 15,
  types: [MessageType.USERNAME_PROOF],
  validate: (body, data) => validateUsernameProofBody(body, data.fid, data.timestamp),
  render: renderUserNameProof,
  encode: UserNameProof.encode,
} satisfies BodyKind<"usernameProofBody", UserNameProofJson>;
