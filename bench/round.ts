import type { LoadGenerator, LoadResult, Plan } from "./load.js";
import type { Split, ThreadCpu } from "./threadCpu.js";

export interface Round {
  load: LoadResult;
  /** The server process's CPU over the round. */
  server: Split;
}

const SETTLE_WINDOW_MS = 100;
/** A process spending less CPU than this share of one core is idle. */
const IDLE_SHARE = 0.05;
const SETTLE_MAX_MS = 5_000;

/**
 * Waits until this process is idle (its CPU over a short window under a twentieth of a core), or
 * a few seconds: work a round left behind (checkpoints, deferred writes, compiling) settles first.
 */
async function settle(): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < SETTLE_MAX_MS) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
    const { user, system } = process.cpuUsage(before);
    if (user + system < SETTLE_WINDOW_MS * 1000 * IDLE_SHARE) return;
  }
}

/**
 * One round of `plan` with the server process's CPU taken from an idle start until it is idle
 * again, so that the work the round deferred counts and earlier work does not.
 */
export async function measureRound(cpu: ThreadCpu, generator: LoadGenerator, plan: Plan): Promise<Round> {
  await generator.prepare(plan);
  await settle();
  const start = cpu.sample();
  const load = await generator.go();
  await settle();
  return { load, server: cpu.since(start) };
}

/** A warm-up round of `warmUp` (workers booted, code compiled), then the measured round of `plan`. */
export async function steadyRound(
  cpu: ThreadCpu,
  generator: LoadGenerator,
  warmUp: Plan,
  plan: Plan,
): Promise<Round> {
  await generator.run(warmUp);
  return measureRound(cpu, generator, plan);
}

/** The server's CPU per operation over a round, in µs. */
export const perOperation = (round: Round) => round.server.total / Math.max(1, round.load.done);

/** The middle value, or the mean of the two middle values of an even count. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}
