import { HubError } from "../errors.js";
import { UserNameType, type UserNameProof } from "../generated/username_proof.js";
import { toProtocolTime } from "../time.js";
import { invalid } from "./errors.js";
import { utf8Name, validateEnsName } from "./names.js";

/**
 * The message form carries ENS (and base) names only; fnames come from the registry. Ownership and
 * the proof's own signature are not checked here (the reference resolves the name on L1 instead).
 */
export function validateUsernameProofBody(
  body: UserNameProof,
  fid: number,
  timestamp: number,
): HubError | undefined {
  if (
    body.type !== UserNameType.USERNAME_TYPE_NAMESERVICE_L1 &&
    body.type !== UserNameType.USERNAME_TYPE_BASENAME
  ) {
    return invalid(`invalid username type: ${body.type}`);
  }
  const nameError = validateEnsName(utf8Name(body.name));
  if (nameError !== undefined) return nameError;
  if (body.fid !== fid) return invalid("fid in username proof does not match fid in message data");
  let proofTime: number;
  try {
    proofTime = toProtocolTime(body.timestamp * 1000);
  } catch (error) {
    return error instanceof HubError ? error : invalid("invalid username proof timestamp");
  }
  if (proofTime !== timestamp) {
    return invalid("timestamp in username proof does not match timestamp in message data");
  }
  return undefined;
}
