/**
 * Tells listeners about new blocks. Blocks mined in this process are announced at once (`notify`);
 * blocks mined elsewhere (another process on the same database, or a remote devchain) are found by
 * polling the latest block number, only while someone listens.
 */
export class BlockWatcher {
  private readonly listeners = new Set<(blockNumber: number) => void>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private latestSeen = -1;
  private closed = false;

  constructor(
    private readonly latest: () => Promise<number>,
    private readonly intervalMs: number,
  ) {}

  onBlock(listener: (blockNumber: number) => void): () => void {
    this.listeners.add(listener);
    if (!this.closed && !this.timer) {
      // Polling alone never keeps a process alive; whoever listens has its own reasons to run.
      this.timer = setInterval(() => void this.poll(), this.intervalMs).unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopPolling();
    };
  }

  /** Resolves at the next block announced after this call. */
  nextBlock(): { promise: Promise<number>; cancel(): void } {
    let unsubscribe = () => {};
    const promise = new Promise<number>((resolve) => {
      unsubscribe = this.onBlock((blockNumber) => {
        unsubscribe();
        resolve(blockNumber);
      });
    });
    return { promise, cancel: () => unsubscribe() };
  }

  notify(blockNumber: number): void {
    if (blockNumber <= this.latestSeen) return;
    this.latestSeen = blockNumber;
    for (const listener of [...this.listeners]) {
      try {
        listener(blockNumber);
      } catch {
        // A listener's failure is its own; the block is mined and the other listeners still hear of it.
      }
    }
  }

  /** Stops polling for good: the chain behind it is gone. */
  close(): void {
    this.closed = true;
    this.stopPolling();
  }

  private stopPolling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      this.notify(await this.latest());
    } catch {
      // The chain is unreachable for now; the next poll tries again.
    } finally {
      this.polling = false;
    }
  }
}
