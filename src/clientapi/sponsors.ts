import { serializedTransaction } from "../storage/index.js";
import type { ApiContext } from "./context.js";
import { ClientApiError, badInput, notFound } from "./errors.js";
import * as sponsorStore from "./sponsorStore.js";

/**
 * A sponsor must hold at least this many credits to sponsor a request (SPEC Limits, docs/reference/spec.md).
 */
const MIN_SPONSOR_CREDITS = 100;

/** Fids that pay for other fids' key requests, and their credits. */
export class Sponsors {
  constructor(private readonly ctx: ApiContext) {}

  async get(fid: number): Promise<{ fid: number; credits: number }> {
    const credits = await sponsorStore.sponsorCredits(this.ctx.database.db, fid);
    if (credits === undefined) throw notFound(`fid ${fid} is not signed up as a sponsor`);
    return { fid, credits };
  }

  /** Signs `fid` up, or sets its balance. */
  async setCredits(fid: number, credits: number): Promise<{ fid: number; credits: number }> {
    await serializedTransaction(this.ctx.database, `api:sponsor:${fid}`, (trx) =>
      sponsorStore.setSponsorCredits(trx, fid, credits, this.ctx.nowSeconds()),
    );
    return { fid, credits };
  }

  /** Refuses a sponsor not signed up (400) or short of the minimum (402) when a request names it. */
  async assertCanSponsor(fid: number): Promise<void> {
    const credits = await sponsorStore.sponsorCredits(this.ctx.database.db, fid);
    if (credits === undefined) throw badInput(`fid ${fid} is not signed up as a sponsor`);
    if (credits < MIN_SPONSOR_CREDITS)
      throw new ClientApiError(
        "payment_required",
        `sponsor fid ${fid} has ${credits} credits; sponsoring needs at least ${MIN_SPONSOR_CREDITS}`,
      );
  }
}
