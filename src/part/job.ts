/**
 * A part's background work: one function run every `intervalMs` until stopped, never two runs at
 * once. Its timer keeps the process alive only when asked: housekeeping does not (the part's server
 * does, while it listens), a chain that mines blocks on its own does (a test or a library caller may
 * drive it without a server and wait for its next block).
 */
import type { Logger } from "../http/index.js";

export interface JobOptions {
  /** Names the job in the log line of a failed run. */
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  logger: Logger;
  /** Run once at start rather than after the first interval. */
  immediately?: boolean;
  /** Keep the process alive while the job runs (default false). */
  keepAlive?: boolean;
}

export interface Job {
  /** No run starts after this; resolves once the run in flight, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * Starts `run` at a fixed rate: the next run starts `intervalMs` after the previous one started, or
 * at once when that one took longer. A failed run is logged and the job goes on.
 */
export function startJob({
  name,
  intervalMs,
  run,
  logger,
  immediately = false,
  keepAlive = false,
}: JobOptions): Job {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const schedule = (delayMs: number) => {
    timer = setTimeout(tick, delayMs);
    if (!keepAlive) timer.unref();
  };
  const tick = () => {
    const started = Date.now();
    inFlight = run()
      .then(
        () => undefined,
        (error: unknown) => logger.error({ err: error, job: name }, `${name} failed`),
      )
      .finally(() => {
        if (!stopped) schedule(Math.max(0, intervalMs - (Date.now() - started)));
      });
  };
  if (immediately) tick();
  else schedule(intervalMs);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
