import type { LoadGenerator, LoadResult, Plan } from "./load.js";
import type { Split, ThreadCpu } from "./threadCpu.js";

export interface Round {
  load: LoadResult;
  /** The server process's CPU over the round. */
  server: Split;
}

/** One round of `plan` with the server process's CPU taken around it, and nothing else in it. */
export async function measureRound(cpu: ThreadCpu, generator: LoadGenerator, plan: Plan): Promise<Round> {
  await generator.prepare(plan);
  const start = cpu.sample();
  const load = await generator.go();
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
