import { serializedTransaction } from "../storage/index.js";
import * as blockStore from "./blockStore.js";
import type { ApiContext } from "./context.js";
import { badInput } from "./errors.js";
import { type CursorPage, type PageQuery, readPage } from "./paging.js";

export interface BlockJson {
  blockerFid: number;
  blockedFid: number;
  createdAt: number;
}

/** Who blocked whom: the public list and the operator's blocks and unblocks. */
export class Blocks {
  constructor(private readonly ctx: ApiContext) {}

  /** Every blocker's blocks when `blockerFid` is undefined. */
  list(blockerFid: number | undefined, query: PageQuery): Promise<CursorPage<BlockJson>> {
    return readPage(
      this.ctx.cursors,
      `blocks:${blockerFid ?? "all"}`,
      query,
      (after, limit) => blockStore.blocks(this.ctx.database.db, blockerFid, after, limit),
      (row) => [row.created_at, row.id],
      (row) => ({ blockerFid: row.blocker_fid, blockedFid: row.blocked_fid, createdAt: row.created_at }),
    );
  }

  async block(blockerFid: number, blockedFid: number, createdAt?: number): Promise<BlockJson> {
    if (blockerFid === blockedFid) throw badInput("a fid cannot block itself");
    const at = await serializedTransaction(this.ctx.database, `api:blocks:${blockerFid}`, (trx) =>
      blockStore.block(trx, blockerFid, blockedFid, createdAt ?? this.ctx.nowSeconds()),
    );
    return { blockerFid, blockedFid, createdAt: at };
  }

  async unblock(blockerFid: number, blockedFid: number): Promise<{ blocked: false }> {
    await serializedTransaction(this.ctx.database, `api:blocks:${blockerFid}`, (trx) =>
      blockStore.unblock(trx, blockerFid, blockedFid),
    );
    return { blocked: false };
  }
}
