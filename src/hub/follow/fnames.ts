/**
 * Fname proofs: the hub follows the registry's transfers (as the reference hub polls
 * GET /transfers?from_id), checks each server signature against the registry's signer, and keeps
 * one proof per name. A transfer to fid 0 releases the name and deletes its proof. When a name
 * leaves a fid, that fid's USERNAME user data naming it is revoked.
 */
import { fromHex } from "../../protocol/hex.js";
import type { Address } from "viem";
import { verifyUsernameProof } from "../../protocol/eip712/usernameProof.js";
import { HubEventType } from "../../protocol/generated/hub_event.js";
import { UserDataType } from "../../protocol/generated/message.js";
import { UserNameType, type UserNameProof } from "../../protocol/generated/username_proof.js";
import { decodeMessage } from "../../protocol/message.js";
import type { Transfer, TransferFeed } from "../../interfaces/transferFeed.js";
import type { MergeContext } from "../merge/context.js";
import { runMerge, type HubCore } from "../core.js";
import { type CatchUpProgressListener, Follower } from "./follower.js";
import { StoreType, u8 } from "../data/keys.js";
import { readState, writeState } from "../data/state.js";
import { revokeRow } from "../merge/stores/crdt.js";
import { findBySetKey } from "../merge/stores/rows.js";
import { fidLock, followerLock, nameLock } from "../merge/locks.js";
import type { HubTables } from "../data/tables.js";

const LAST_TRANSFER = "fnames:last_transfer_id";
const NAMES_FOLLOWER = 2;
const utf8 = new TextEncoder();

function proofOfTransfer(transfer: Transfer): UserNameProof {
  return {
    timestamp: transfer.timestamp,
    name: utf8.encode(transfer.username),
    owner: fromHex(transfer.owner),
    signature: fromHex(transfer.server_signature),
    fid: transfer.to,
    type: UserNameType.USERNAME_TYPE_FNAME,
  };
}

type ProofRow = HubTables["hub_fname_proofs"];

export function proofOfRow(row: ProofRow): UserNameProof {
  return {
    timestamp: row.timestamp,
    name: utf8.encode(row.name),
    owner: row.owner,
    signature: row.signature,
    fid: row.fid,
    type: UserNameType.USERNAME_TYPE_FNAME,
  };
}

/**
 * Merges one verified transfer. Transfers apply in the registry's id order (its timestamps have
 * one-second resolution, so a register and a release in the same second would tie otherwise); an
 * older or repeated transfer changes nothing.
 */
async function mergeTransfer(ctx: MergeContext, transfer: Transfer): Promise<void> {
  const name = transfer.username;
  const row = await ctx.trx
    .selectFrom("hub_fname_proofs")
    .selectAll()
    .where("name", "=", name)
    .executeTakeFirst();
  if (row !== undefined && row.transfer_id >= transfer.id) return;
  const previous = row === undefined ? undefined : proofOfRow(row);
  if (transfer.to === 0) {
    if (row === undefined) return;
    await ctx.trx.deleteFrom("hub_fname_proofs").where("name", "=", name).execute();
  } else {
    const values = {
      fid: transfer.to,
      timestamp: transfer.timestamp,
      owner: fromHex(transfer.owner),
      signature: fromHex(transfer.server_signature),
      transfer_id: transfer.id,
    };
    await ctx.trx
      .insertInto("hub_fname_proofs")
      .values({ name, ...values })
      .onConflict((oc) => oc.column("name").doUpdateSet(values))
      .execute();
  }
  ctx.events.push({
    type: HubEventType.MERGE_USERNAME_PROOF,
    mergeUsernameProofBody: {
      usernameProof: transfer.to === 0 ? undefined : proofOfTransfer(transfer),
      deletedUsernameProof: previous,
      usernameProofMessage: undefined,
      deletedUsernameProofMessage: undefined,
    },
  });
  if (previous !== undefined && previous.fid !== transfer.to) await revokeUsername(ctx, previous.fid, name);
}

/** Revokes the fid's USERNAME user data if it names `name` (the name has left the fid). */
async function revokeUsername(ctx: MergeContext, fid: number, name: string): Promise<void> {
  const row = await findBySetKey(ctx, fid, StoreType.USER_DATA, u8(UserDataType.USERNAME));
  if (row === undefined) return;
  if (decodeMessage(row.message).message.data?.userDataBody?.value === name) await revokeRow(ctx, row);
}

export class NameFollower extends Follower {
  #signer: Address | undefined;
  /** Transfers the first catch-up has merged (the registry does not say how many it holds). */
  #merged = 0;

  constructor(
    private readonly core: HubCore,
    private readonly feed: TransferFeed,
    onCatchUp?: CatchUpProgressListener,
  ) {
    super("registry", core.logger, (notice) => feed.onTransfer(notice), onCatchUp);
  }

  /** Fetches the transfers of one name and merges those not merged yet (a USERNAME arrived first). */
  async recover(name: string): Promise<void> {
    const transfers = await this.#verified(await this.feed.transfersByName(name));
    if (transfers.length === 0) return;
    await runMerge(this.core, this.#locks(transfers), async (ctx) => {
      for (const transfer of transfers) await mergeTransfer(ctx, transfer);
    });
  }

  protected async step(): Promise<boolean> {
    const after = Number((await readState(this.core.database.db, LAST_TRANSFER)) ?? 0);
    const page = await this.feed.transfersAfter(after);
    if (page.length === 0) return false;
    const transfers = await this.#verified(page);
    await runMerge(this.core, [followerLock(NAMES_FOLLOWER), ...this.#locks(page)], async (ctx) => {
      if (Number((await readState(ctx.trx, LAST_TRANSFER)) ?? 0) !== after) return;
      for (const transfer of transfers) await mergeTransfer(ctx, transfer);
      await writeState(ctx.trx, LAST_TRANSFER, String(page[page.length - 1]!.id));
    });
    if (this.catchingUp) this.advanced((this.#merged += page.length));
    return true;
  }

  #locks(transfers: readonly Transfer[]): bigint[] {
    const locks: bigint[] = [];
    for (const transfer of transfers) {
      locks.push(nameLock(utf8.encode(transfer.username)), fidLock(transfer.from), fidLock(transfer.to));
    }
    return locks;
  }

  /** Transfers whose server signature the registry's signer made; others are logged and skipped. */
  async #verified(transfers: readonly Transfer[]): Promise<Transfer[]> {
    this.#signer ??= await this.feed.signer();
    const signer = this.#signer;
    const checks = await Promise.all(
      transfers.map((t) =>
        verifyUsernameProof(
          this.core.profile,
          { name: t.username, timestamp: BigInt(t.timestamp), owner: t.owner },
          t.server_signature,
          signer,
        ),
      ),
    );
    return transfers.filter((transfer, i) => {
      if (checks[i] !== undefined) return true;
      this.core.logger.warn(
        { transfer: transfer.id, name: transfer.username },
        "transfer with a bad server signature skipped",
      );
      return false;
    });
  }
}
