import type { Address, Hex } from "viem";
import type { ChainClient, TransactionStatus } from "../../interfaces/chain.js";
import { KEY_TYPE_ED25519, METADATA_TYPE_SIGNED_KEY_REQUEST } from "../../protocol/contracts.js";
import { encodeSignedKeyRequestMetadata } from "../../protocol/eip712/index.js";
import { serializedTransaction } from "../../storage/index.js";
import type { ApiContext } from "../context.js";
import { chainFailure } from "../errors.js";
import type { KeyRequestRow } from "./store.js";
import * as keyRequestStore from "./store.js";
import * as sponsorStore from "../sponsorStore.js";

/**
 * An approval cut off while "submitting" (a crash, a chain that never answered) is resolved this long
 * after it began: well past the chain client's longest wait (120 s), so that it is never taken for
 * one still waiting in some process.
 */
const STALE_SUBMISSION_SECONDS = 300;

/**
 * The chain side of approvals. The key add is sent outside any transaction (a slow chain holds up no
 * other write); before it, the request is recorded as "submitting", after it, moved on in one
 * conditional update. The devchain refuses a second add of a key to a fid, pending or mined, so
 * sending it again to resolve a cut-off approval can never add it twice.
 */
export class KeyAdds {
  constructor(
    private readonly ctx: ApiContext,
    private readonly chain: ChainClient,
  ) {}

  /**
   * Sends the key add of a "submitting" request and records the outcome. A refusal undoes the
   * approval; an unreachable chain leaves the request for `resolveStale`.
   */
  async submit(row: KeyRequestRow): Promise<void> {
    let status: TransactionStatus;
    try {
      status = await this.send(row);
    } catch (error) {
      const failure = chainFailure(error, "the key add", this.ctx.logger);
      if (failure.code === "conflict") await this.undo(row.token);
      throw failure;
    }
    await this.settle(row.token, status);
  }

  /** Resolves approvals cut off between "submitting" and the chain's answer, against the chain. */
  async resolveStale(): Promise<void> {
    const cutoff = this.ctx.nowSeconds() - STALE_SUBMISSION_SECONDS;
    for (const row of await keyRequestStore.keyRequestsIn(this.ctx.database.db, "submitting")) {
      if (row.updated_at > cutoff) continue;
      try {
        await this.resolve(row);
      } catch (error) {
        this.ctx.logger.warn(
          { err: error, token: row.token },
          "could not resolve a cut-off key add; will retry",
        );
      }
    }
  }

  /** Completes every approved request whose key add was mined. */
  async advanceApproved(): Promise<void> {
    for (const row of await keyRequestStore.keyRequestsIn(this.ctx.database.db, "approved"))
      await this.advance(row);
  }

  /** approved → completed once the key add is mined. */
  async advance(row: KeyRequestRow): Promise<void> {
    if (row.transaction_hash === null) return;
    let status: TransactionStatus | undefined;
    try {
      status = await this.chain.getTransaction(row.transaction_hash as Hex);
    } catch (error) {
      this.ctx.logger.warn({ err: error, token: row.token }, "could not read a key add transaction");
      return;
    }
    if (status?.status !== "mined") return;
    await keyRequestStore.moveKeyRequest(this.ctx.database.db, row.token, "approved", {
      state: "completed",
      updated_at: this.ctx.nowSeconds(),
    });
  }

  private async resolve(row: KeyRequestRow): Promise<void> {
    const account = await this.chain.getAccount(row.user_fid!);
    if (account?.signers.some((signer) => signer.key.toLowerCase() === row.key)) {
      await keyRequestStore.moveKeyRequest(this.ctx.database.db, row.token, "submitting", {
        state: "completed",
        updated_at: this.ctx.nowSeconds(),
      });
      return;
    }
    try {
      await this.settle(row.token, await this.send(row));
    } catch (error) {
      // The first add is on the chain, not mined yet: the next round sees it mined.
      if ((error as { code?: unknown }).code === "key_exists") return;
      if (chainFailure(error, "the key add", this.ctx.logger).code === "conflict") await this.undo(row.token);
      else throw error;
    }
  }

  private send(row: KeyRequestRow): Promise<TransactionStatus> {
    return this.chain.submitKeyAdd({
      fid: row.user_fid!,
      key: row.key as Hex,
      keyType: KEY_TYPE_ED25519,
      metadataType: METADATA_TYPE_SIGNED_KEY_REQUEST,
      metadata: metadataOf(row),
    });
  }

  private async settle(token: string, status: TransactionStatus): Promise<void> {
    await keyRequestStore.moveKeyRequest(this.ctx.database.db, token, "submitting", {
      state: status.status === "mined" ? "completed" : "approved",
      transaction_hash: status.transactionHash,
      updated_at: this.ctx.nowSeconds(),
    });
  }

  /** The chain refused the key add: the request is pending again, its credits and nonce given back. */
  private async undo(token: string): Promise<void> {
    const now = this.ctx.nowSeconds();
    await serializedTransaction(this.ctx.database, `api:key-request:${token}`, async (trx) => {
      const row = await keyRequestStore.getKeyRequest(trx, token);
      if (row?.state !== "submitting") return;
      await keyRequestStore.moveKeyRequest(trx, token, "submitting", {
        state: "pending",
        user_fid: null,
        approval_custody: null,
        approval_nonce: null,
        charged: 0,
        updated_at: now,
      });
      if (row.sponsor_fid !== null && row.charged > 0)
        await sponsorStore.refundSponsor(trx, row.sponsor_fid, row.charged, now);
      if (row.approval_custody !== null && row.approval_nonce !== null)
        await keyRequestStore.restoreGatewayNonce(trx, row.approval_custody, row.approval_nonce);
    });
  }
}

export function metadataOf(row: KeyRequestRow): Hex {
  return encodeSignedKeyRequestMetadata({
    requestFid: row.request_fid,
    requestSigner: row.request_signer as Address,
    signature: row.signature as Hex,
    deadline: row.deadline,
  });
}
