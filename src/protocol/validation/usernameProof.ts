import { verifyUsernameProof } from "../eip712/usernameProof.js";
import { HubError } from "../errors.js";
import { UserNameType, type UserNameProof } from "../generated/username_proof.js";
import { toHex } from "../hex.js";
import type { NamingProfile } from "../naming.js";
import { toProtocolTime } from "../time.js";
import { invalid } from "./errors.js";
import { utf8Name, validateEnsName } from "./names.js";

/**
 * The message form carries ENS (and base) names only; fnames come from the registry. Ownership of
 * the name is not checked here (the reference resolves the name on L1; castnet cannot), the proof's
 * signature by its owner is (verifyUsernameProofSignature).
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

/**
 * The proof's EIP-712 signature must recover to its owner, under either naming profile's domain:
 * without it anyone could name any address as the owner of any name.
 */
export async function verifyUsernameProofSignature(
  body: UserNameProof,
  profile: NamingProfile,
): Promise<HubError | undefined> {
  if (body.owner.length !== 20) return invalid("username proof owner must be a 20-byte address");
  const owner = toHex(body.owner);
  const claim = { name: utf8Name(body.name), timestamp: BigInt(body.timestamp), owner };
  if ((await verifyUsernameProof(profile, claim, body.signature, owner)) !== undefined) return undefined;
  return invalid("invalid username proof signature: it does not recover to the proof's owner");
}
