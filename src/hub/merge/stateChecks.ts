/**
 * The checks of a message against the hub's state, in the reference hub's order
 * (docs/reference/protocol-rules.md §3, steps 1–6): network, fid, signer, username, name-service
 * proof. They run without a lock, before the merge; the merge checks fid and signer again under it.
 */
import { toHex } from "../../protocol/hex.js";
import { HubError } from "../../protocol/errors.js";
import { MessageType, UserDataType, type MessageData } from "../../protocol/generated/message.js";
import { profileNames } from "../../protocol/json/enums.js";
import type { MessageWithData } from "../../protocol/message.js";
import type { HubCore } from "../core.js";
import { nameServiceProofError, usernameError } from "../data/names.js";
import { NameRecoveries } from "../follow/nameRecovery.js";
import { isActiveSigner, isRegisteredFid } from "../data/onchain.js";
import { gaslessKey } from "../data/gaslessKeys.js";
import { expired, isKeyMessage, outOfScope } from "./gaslessKeys.js";

/** What the checks may ask for when the hub's state looks behind. */
export interface FollowerNudge {
  /** Catches up with the chain (a key or fid may have just been mined). */
  syncChain(): Promise<void>;
  /** Fetches the registry's transfers of a name the hub has no proof for yet. */
  recoverName(name: string): Promise<void>;
}

/** A refusal that catching up with the chain may lift: the fid or its signer is not known yet. */
export function isAccountError(error: HubError | undefined): boolean {
  return error?.errCode === "bad_request.unknown_fid" || error?.errCode === "bad_request.unknown_signer";
}

export function unknownFid(fid: number): HubError {
  return new HubError("bad_request.unknown_fid", `unknown fid: ${fid}`);
}

export function unknownSigner(signer: Uint8Array, fid: number): HubError {
  return new HubError(
    "bad_request.unknown_signer",
    `invalid signer: signer ${toHex(signer)} not found for fid ${fid}`,
  );
}

/** USERNAME user data and name-service proofs need checks that may reach the registry. */
export function needsNameCheck(data: MessageData): boolean {
  return (
    (data.type === MessageType.USER_DATA_ADD && data.userDataBody?.type === UserDataType.USERNAME) ||
    data.type === MessageType.USERNAME_PROOF
  );
}

export class StateChecks {
  readonly #recoveries = new NameRecoveries();

  constructor(
    private readonly core: HubCore,
    private readonly catchUp: FollowerNudge,
  ) {}

  /**
   * Step 3: the signer is an active key of the fid, on chain or added by message (and then within
   * its scopes and lifetime). Key messages are authorised by their own signatures instead.
   */
  async #signer(message: MessageWithData): Promise<HubError | undefined> {
    const data = message.data;
    const db = this.core.database.db;
    if (isKeyMessage(data.type) || (await isActiveSigner(db, data.fid, message.signer))) return undefined;
    const key = await gaslessKey(db, data.fid, message.signer);
    if (key === undefined) return unknownSigner(message.signer, data.fid);
    return outOfScope(key, data.type) ?? expired(key, this.core.now());
  }

  network(data: MessageData): HubError | undefined {
    if (data.network === this.core.network) return undefined;
    const names = profileNames(this.core.profile).network;
    return new HubError(
      "bad_request.validation_failure",
      `incorrect network: ${names[data.network] ?? data.network} (expected: ${names[this.core.network]})`,
    );
  }

  /**
   * `state`, once more after catching up with the chain if the fid or signer was unknown. Only a
   * `signed` message (one that passed the stateless checks) may make the hub catch up with the
   * chain, and only a signed one is judged on names: an unsigned one gets the verdict of the fid and
   * signer as the hub holds them, and then its own stateless refusal (its signature comes before the
   * rules of its type), so that an unsigned caller learns nothing about who holds a name.
   */
  async stateAfterCatchUp(message: MessageWithData, signed: boolean): Promise<HubError | undefined> {
    const error = await this.state(message, signed);
    if (!signed || !isAccountError(error)) return error;
    await this.catchUp.syncChain();
    return this.state(message, signed);
  }

  /**
   * Steps 1–6 after the network, the name steps (5 and 6) only for a `signed` message. A name the
   * hub holds no proof of is looked up at the registry, within the budget.
   */
  async state(message: MessageWithData, signed: boolean): Promise<HubError | undefined> {
    const data = message.data;
    const db = this.core.database.db;
    if (!(await isRegisteredFid(db, data.fid))) return unknownFid(data.fid);
    const signerError = await this.#signer(message);
    if (signerError !== undefined) return signerError;
    if (!signed) return undefined;
    const username = data.userDataBody;
    if (
      data.type === MessageType.USER_DATA_ADD &&
      username?.type === UserDataType.USERNAME &&
      username.value !== ""
    ) {
      let error = await usernameError(db, data.fid, username.value);
      if (
        error !== undefined &&
        !username.value.endsWith(".eth") &&
        this.#recoveries.take(username.value, this.core.now())
      ) {
        await this.catchUp.recoverName(username.value);
        error = await usernameError(db, data.fid, username.value);
      }
      return error;
    }
    if (data.type === MessageType.USERNAME_PROOF && data.usernameProofBody !== undefined) {
      return nameServiceProofError(db, data);
    }
    return undefined;
  }
}
