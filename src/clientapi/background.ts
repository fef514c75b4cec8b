import type { Logger } from "../http/index.js";

export interface Background {
  /** Stops the loop, waiting for a round in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `tasks` one after the other, then again `intervalMs` later, until stopped; the first round at
 * once. A failing task is logged and does not stop the others.
 */
export function startBackground(
  tasks: (() => Promise<void>)[],
  intervalMs: number,
  logger: Logger,
): Background {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();

  const tick = () => {
    round = (async () => {
      for (const task of tasks) {
        if (stopped) return;
        await task().catch((error: unknown) => logger.error({ err: error }, "background task failed"));
      }
    })().finally(() => {
      if (!stopped) {
        timer = setTimeout(tick, intervalMs);
        timer.unref();
      }
    });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
