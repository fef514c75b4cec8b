/**
 * How phases are reported: one compact block each as it ends, and a table of them all at the end,
 * in Markdown, for docs/performance.md.
 */
import { describeFailures } from "./load.js";
import type { Round } from "./round.js";
import { GROUPS, type Group } from "./threadCpu.js";

export interface Target {
  /** What is held against the goal, with its value: "throughput 0.42 of the verify rate". */
  figure: string;
  /** "≥ 0.5" */
  goal: string;
  met: boolean;
}

export interface Phase {
  name: string;
  /** What was run: sizes, concurrency, warm-up. */
  detail: string;
  /** What one operation is: "message", "request". */
  unit: string;
  /** The server's side of a load round; its CPU per operation is the phase's figure. */
  round?: Round;
  /**
   * The figure in µs per operation, when it is not the round's CPU per operation: single-thread
   * CPU work, or a median of several rounds.
   */
  micros?: number;
  floor?: { name: string; micros: number };
  /** The most the figure may be, as a multiple of the floor. */
  maxRatio?: number;
  targets?: Target[];
}

/** A line of the summary; a phase's further targets leave its name and figure blank. */
export interface Row {
  phase: string;
  micros: number | undefined;
  floor?: number;
  figure: string;
  goal: string;
  met: boolean | undefined;
}

const LABELS: Record<Group, string> = {
  main: "main",
  workers: "workers",
  v8: "V8 helpers",
  libuv: "libuv pool",
  other: "other/exited",
};

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const yes = (met: boolean) => (met ? "met" : "NOT met");

export class Summary {
  readonly #quick: boolean;
  readonly #rows: Row[] = [];

  constructor(quick: boolean) {
    this.#quick = quick;
  }

  heading(name: string): string {
    return this.#quick ? `${name} (quick)` : name;
  }

  report(phase: Phase): void {
    const { round, floor } = phase;
    const ops = round === undefined ? 1 : Math.max(1, round.load.done);
    const micros = phase.micros ?? round!.server.total / ops;
    console.log(`-- ${this.heading(phase.name)}: ${phase.detail}`);
    const lines: string[] = [];
    let cpu = `${round === undefined ? "CPU" : "server CPU"} ${int(micros)} µs/${phase.unit}`;
    const rows: Row[] = [];
    if (floor === undefined) {
      if ((phase.targets ?? []).length === 0)
        rows.push({ phase: phase.name, micros, figure: "", goal: "", met: undefined });
    } else {
      const ratio = micros / floor.micros;
      cpu += `; floor ${floor.name} ${int(floor.micros)} µs; ratio ${ratio.toFixed(2)}x`;
      const met = phase.maxRatio === undefined ? undefined : ratio <= phase.maxRatio;
      if (met !== undefined) cpu += ` (target ≤ ${phase.maxRatio}x: ${yes(met)})`;
      rows.push({
        phase: phase.name,
        micros,
        floor: floor.micros,
        figure: `${ratio.toFixed(2)}x`,
        goal: phase.maxRatio === undefined ? "" : `≤ ${phase.maxRatio}x`,
        met,
      });
    }
    lines.push(cpu);
    for (const target of phase.targets ?? []) {
      lines.push(`${target.figure} (target ${target.goal}: ${yes(target.met)})`);
      const first = rows.length === 0;
      rows.push({
        phase: first ? phase.name : "",
        micros: first ? micros : undefined,
        figure: target.figure,
        goal: target.goal,
        met: target.met,
      });
    }
    if (round !== undefined) {
      const { load, server } = round;
      lines.push(
        `${int((load.done / load.elapsedMs) * 1000)} ${phase.unit}s/s over ${(load.elapsedMs / 1000).toFixed(1)} s; ` +
          `p50 ${load.p50Ms.toFixed(1)} ms, p99 ${load.p99Ms.toFixed(1)} ms${describeFailures(load)}`,
      );
      const split = GROUPS.map((group) => `${LABELS[group]} ${int(server.groups[group] / ops)}`).join(", ");
      lines.push(`server µs/${phase.unit} by thread: ${split}; load generator ${int(load.cpuMicros / ops)}`);
    }
    for (const line of lines) console.log(`   ${line}`);
    this.#rows.push(...rows);
  }

  /** This process's lines, for the process that prints the table. */
  rows(): Row[] {
    return this.#rows;
  }

  /** Lines reported in another process. */
  add(rows: Row[]): void {
    this.#rows.push(...rows);
  }

  /** The table of every phase run. */
  print(): void {
    if (this.#rows.length === 0) return;
    console.log(`\n== ${this.heading("summary")} ==`);
    console.log("| phase | µs CPU/op | floor µs | ratio or figure | target | met |");
    console.log("|---|---:|---:|---|---|---|");
    for (const row of this.#rows) {
      const met = row.met === undefined ? "" : row.met ? "yes" : "no";
      const floor = row.floor === undefined ? "" : int(row.floor);
      const micros = row.micros === undefined ? "" : int(row.micros);
      console.log(`| ${row.phase} | ${micros} | ${floor} | ${row.figure} | ${row.goal} | ${met} |`);
    }
  }
}
