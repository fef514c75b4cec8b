/** What a seed run made and what it found already there, by kind, driving the progress line. */
import type { Progress } from "../progress.js";

export type Kind =
  | "accounts"
  | "names"
  | "profiles"
  | "casts"
  | "reactions"
  | "follows"
  | "verifications"
  | "loans"
  | "channels"
  | "channel follows"
  | "blocks"
  | "actions"
  | "installs"
  | "sponsors"
  | "key requests"
  | "gasless signers"
  | "power badges"
  | "badge overrides";

export class Tally {
  readonly made: Partial<Record<Kind, number>> = {};
  readonly total: Partial<Record<Kind, number>> = {};
  private done = 0;

  /** Once `signal` is aborted, the next item counted throws its reason: the seed stops there. */
  constructor(
    private readonly progress: Progress,
    private readonly signal?: AbortSignal,
  ) {}

  /** `made` of `total` items of `kind` were new. */
  count(kind: Kind, made: number, total: number): void {
    this.note(kind, made, total);
    this.done += total;
    this.progress.update(this.done);
    this.signal?.throwIfAborted();
  }

  /** As count, for what the progress does not count in advance (what a rule on the server decides). */
  note(kind: Kind, made: number, total: number): void {
    this.made[kind] = (this.made[kind] ?? 0) + made;
    this.total[kind] = (this.total[kind] ?? 0) + total;
  }

  /** One item of `kind`, new or already there. */
  one(kind: Kind, made: boolean): void {
    this.count(kind, made ? 1 : 0, 1);
  }
}
