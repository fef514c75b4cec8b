/** The hub's answers about username proofs: fname proofs first, then name-service proofs. */
import type { Kysely } from "kysely";
import type { UserNameProof } from "../../../protocol/generated/username_proof.js";
import { decodeMessage } from "../../../protocol/message.js";
import { notFound } from "../../errors.js";
import { proofOfRow } from "../../follow/fnames.js";
import { nameKey } from "../keys.js";
import { fnameProof, fnameProofsOf, usernameProofByName, usernameProofMessages } from "../names.js";
import type { HubTables } from "../tables.js";

type Db = Kysely<HubTables>;

const utf8 = new TextEncoder();

function proofOf(message: Uint8Array): UserNameProof | undefined {
  return decodeMessage(message).message.data?.usernameProofBody;
}

/** The hub's reads of username proofs. */
export class NameReads {
  constructor(private readonly db: Db) {}

  async proofByName(name: string): Promise<UserNameProof> {
    const fname = await fnameProof(this.db, name);
    if (fname !== undefined) return proofOfRow(fname);
    const message = (await usernameProofByName(this.db, nameKey(utf8.encode(name))))?.message;
    const proof = message === undefined ? undefined : proofOf(message);
    if (proof === undefined) throw notFound("username proof");
    return proof;
  }

  async proofsByFid(fid: number): Promise<UserNameProof[]> {
    const proofs = (await fnameProofsOf(this.db, fid)).map(proofOfRow);
    for (const message of await usernameProofMessages(this.db, fid)) {
      const proof = proofOf(message);
      if (proof !== undefined) proofs.push(proof);
    }
    return proofs;
  }
}
