/**
 * The run loop shared by the chain and registry followers: pokes coalesce into at most one queued
 * catch-up, a catch-up runs `step` until it reports nothing left, and a failure (the chain or the
 * registry unreachable) is logged and retried a little later rather than thrown at whoever poked.
 */
import type { Logger } from "../http/index.js";

const RETRY_MS = 2_000;

export class Follower {
  #tail: Promise<void> = Promise.resolve();
  #queued = false;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly name: string,
    private readonly step: () => Promise<boolean>,
    private readonly logger: Logger,
  ) {}

  /** Resolves once a catch-up that started after this call has finished. */
  poke(): Promise<void> {
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
      this.#retry = setTimeout(() => void this.poke(), RETRY_MS);
      this.#retry.unref();
    }
  }
}
