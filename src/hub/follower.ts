/**
 * The run loop shared by the chain and registry followers: every notice of the source (a block, a
 * transfer) pokes it, pokes coalesce into at most one queued catch-up, a catch-up runs `step` until
 * it reports nothing left, and a failure (the chain or the registry unreachable) is logged and
 * retried a little later rather than thrown at whoever poked.
 */
import type { Logger } from "../http/index.js";

const RETRY_MS = 2_000;

export abstract class Follower {
  #tail: Promise<void> = Promise.resolve();
  #queued = false;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;
  readonly #unsubscribe: () => void;

  /** `subscribe` registers a listener for the source's notices and returns its removal. */
  constructor(
    private readonly name: string,
    private readonly logger: Logger,
    subscribe: (notice: () => void) => () => void,
  ) {
    this.#unsubscribe = subscribe(() => void this.sync());
  }

  /** Merges one page of what the source has; false when there was nothing left. */
  protected abstract step(): Promise<boolean>;

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
    try {
      while (!this.#stopped && (await this.step()));
    } catch (error) {
      this.logger.warn({ err: error, follower: this.name }, "follower step failed; retrying");
      if (this.#stopped) return;
      clearTimeout(this.#retry);
      this.#retry = setTimeout(() => void this.sync(), RETRY_MS);
      this.#retry.unref();
    }
  }
}
