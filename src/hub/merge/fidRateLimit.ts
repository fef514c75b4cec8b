/**
 * The per-fid rate limit of the reference hub (docs/reference/protocol-rules.md §3 step 10): a fid may merge
 * units × 10,080 messages per 24-hour window (10,080 is the sum of a legacy unit's store limits).
 * A window opens at the fid's first merge after the last one closed; only successful merges count.
 * Like the reference, the count is kept per hub process, in memory.
 */
import type { HubError } from "../../protocol/errors.js";
import { rateLimited } from "../errors.js";

/** Merges per storage unit per window, as in the reference. */
const MERGES_PER_UNIT = 10_080;
const WINDOW_MS = 24 * 60 * 60 * 1000;

interface Window {
  opened: number;
  merges: number;
}

export class FidRateLimit {
  readonly #windows = new Map<number, Window>();

  constructor(private readonly mergesPerUnit = MERGES_PER_UNIT) {}

  /** The refusal for a fid with `units` storage units that has used up its window, if it has. */
  check(fid: number, units: number, nowMs: number): HubError | undefined {
    const window = this.#current(fid, nowMs);
    if (window === undefined || window.merges < units * this.mergesPerUnit) return undefined;
    return rateLimited(`rate limit exceeded for FID ${fid}`);
  }

  /** Counts a successful merge of the fid. */
  consume(fid: number, nowMs: number): void {
    const window = this.#current(fid, nowMs);
    if (window === undefined) this.#windows.set(fid, { opened: nowMs, merges: 1 });
    else window.merges++;
  }

  #current(fid: number, nowMs: number): Window | undefined {
    const window = this.#windows.get(fid);
    if (window === undefined || nowMs - window.opened < WINDOW_MS) return window;
    this.#windows.delete(fid);
    return undefined;
  }
}
