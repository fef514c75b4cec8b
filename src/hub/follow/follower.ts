/**
 * The run loop shared by the chain and registry followers: every notice of the source (a block, a
 * transfer) pokes it, pokes coalesce into at most one queued catch-up, a catch-up runs `step` until
 * it reports nothing left, and a failure (the chain or the registry unreachable) is logged and
 * retried a little later rather than thrown at whoever poked. It keeps how far behind it may be, for
 * GET /_ready and the lag metric.
 */
import type { Logger } from "../../http/index.js";

const RETRY_MS = 2_000;

/**
 * How far the first catch-up after start has come: `done` of `total` (a block number of the head's,
 * or transfers merged when the total is not known), `finished` once nothing is left. Never told when
 * there was nothing to catch up.
 */
export interface CatchUpProgress {
  done: number;
  total?: number;
  finished: boolean;
}
export type CatchUpProgressListener = (catchUp: CatchUpProgress) => void;

export abstract class Follower {
  #tail: Promise<void> = Promise.resolve();
  #queued = false;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;
  readonly #unsubscribe: () => void;
  /** Unix ms of the oldest notice no finished catch-up has covered; from the start until the first. */
  #behindSince: number | undefined = Date.now();
  /** Unix ms of the first notice that came while the current catch-up ran (it may have missed it). */
  #noticedDuringRun: number | undefined;
  #running = false;
  /** Whether the last catch-up failed (its error is in the log). */
  #failing = false;
  #caughtUpOnce = false;
  /** What the first catch-up last reported, to repeat as finished. */
  #reported: CatchUpProgress | undefined;
  /** `subscribe` registers a listener for the source's notices and returns its removal. */
  constructor(
    private readonly name: string,
    private readonly logger: Logger,
    subscribe: (notice: () => void) => () => void,
    private readonly onCatchUp?: CatchUpProgressListener,
  ) {
    this.#unsubscribe = subscribe(() => {
      const now = Date.now();
      this.#behindSince ??= now;
      if (this.#running) this.#noticedDuringRun ??= now;
      void this.sync();
    });
  }

  /** Seconds since the oldest notice not yet merged; 0 when caught up. */
  lagSeconds(): number {
    return this.#behindSince === undefined ? 0 : (Date.now() - this.#behindSince) / 1000;
  }

  /**
   * Why the follower is not ready: before its first catch-up has finished, or while its source
   * fails. A notice being merged in the ordinary way does not count: that is not a reason to send
   * traffic elsewhere.
   */
  unready(): string | undefined {
    if (this.#failing) return "its source fails (the log says why)";
    if (!this.#caughtUpOnce) return "catching up";
    return undefined;
  }

  /** Merges one page of what the source has; false when there was nothing left. */
  protected abstract step(): Promise<boolean>;

  /** Whether the first catch-up is running and someone listens to how it advances. */
  protected get catchingUp(): boolean {
    return this.onCatchUp !== undefined && !this.#caughtUpOnce;
  }

  /** A step of the first catch-up merged a page: `done` of `total` are through. */
  protected advanced(done: number, total?: number): void {
    if (!this.catchingUp) return;
    this.#reported = { done, total, finished: false };
    this.onCatchUp!(this.#reported);
  }

  /** Resolves once a catch-up that started after this call has finished. */
  sync(): Promise<void> {
    if (this.#stopped) return this.#tail;
    if (this.#queued) return this.#tail;
    this.#queued = true;
    this.#tail = this.#tail.then(() => {
      this.#queued = false;
      return this.#run();
    });
    return this.#tail;
  }

  async stop(): Promise<void> {
    this.#unsubscribe();
    this.#stopped = true;
    clearTimeout(this.#retry);
    await this.#tail;
  }

  async #run(): Promise<void> {
    this.#running = true;
    this.#noticedDuringRun = undefined;
    try {
      while (!this.#stopped && (await this.step()));
      if (this.#stopped) return;
      this.#behindSince = this.#noticedDuringRun;
      if (this.catchingUp && this.#reported !== undefined)
        this.onCatchUp!({ ...this.#reported, finished: true });
      this.#caughtUpOnce = true;
      this.#failing = false;
    } catch (error) {
      // Whatever was noticed or not, nothing is known to be merged from here on.
      this.#behindSince ??= Date.now();
      this.#failing = true;
      this.logger.warn({ err: error, follower: this.name }, "follower step failed; retrying");
      if (this.#stopped) return;
      clearTimeout(this.#retry);
      this.#retry = setTimeout(() => void this.sync(), RETRY_MS);
      this.#retry.unref();
    } finally {
      this.#running = false;
    }
  }
}
