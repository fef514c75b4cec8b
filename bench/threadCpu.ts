/**
 * This process's CPU split by thread group, read from /proc/self/task/<tid>/stat (utime + stime, in
 * ticks of 1/100 s) around a measured round.
 *
 * On Node 20 every thread is named "node" (cat /proc/<pid>/task/*\/comm), so names tell the groups
 * apart only on later versions ("V8 …", "libuv-worker"). Otherwise: the main thread is the one whose
 * tid is the pid; the libuv pool is the set of threads that did the work of a burst of pbkdf2 calls
 * (libuv runs them on its pool); the other threads alive at startup are V8's platform helpers (with
 * node's signal-watching thread and, under tsx, the module loader's hooks thread, both idle during
 * a round); threads born later are worker threads (the verifier pool, the SQLite checkpointer and
 * readers). Threads that exited during a round count as "other".
 */
import { pbkdf2 } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

export const GROUPS = ["main", "workers", "v8", "libuv", "other"] as const;
export type Group = (typeof GROUPS)[number];

const TICK_MICROS = 10_000;

export interface Sample {
  total: NodeJS.CpuUsage;
  /** tid → utime + stime, in ticks. */
  ticks: Map<number, number>;
}

/** CPU spent between two samples, in µs: the process's total and its split. */
export interface Split {
  total: number;
  groups: Record<Group, number>;
}

function threadTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "latin1");
      // The fields after the name, which may hold spaces, start at state (field 3); utime is 14.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread exited between the listing and the read.
    }
  }
  return ticks;
}

function threadName(tid: number): string {
  try {
    return readFileSync(`/proc/self/task/${tid}/comm`, "latin1").trim();
  } catch {
    return "";
  }
}

export class ThreadCpu {
  readonly #startup: Set<number>;
  readonly #libuv: Set<number>;

  private constructor(startup: Set<number>, libuv: Set<number>) {
    this.#startup = startup;
    this.#libuv = libuv;
  }

  /** Finds this process's libuv pool and startup threads; call it before any worker thread starts. */
  static async probe(): Promise<ThreadCpu> {
    const before = threadTicks();
    // Enough work that each of the pool's threads (4 unless UV_THREADPOOL_SIZE) gets several ticks.
    const jobs = Array.from(
      { length: 32 },
      () => new Promise((resolve) => pbkdf2("castnet", "bench", 20_000, 32, "sha256", resolve)),
    );
    await Promise.all(jobs);
    const after = threadTicks();
    const libuv = new Set<number>();
    for (const [tid, ticks] of after) {
      if (tid !== process.pid && ticks > (before.get(tid) ?? 0)) libuv.add(tid);
    }
    return new ThreadCpu(new Set(after.keys()), libuv);
  }

  sample(): Sample {
    return { total: process.cpuUsage(), ticks: threadTicks() };
  }

  group(tid: number): Group {
    if (tid === process.pid) return "main";
    const name = threadName(tid);
    if (name.startsWith("V8 ")) return "v8";
    if (name === "libuv-worker") return "libuv";
    if (name !== "node") return "other";
    if (this.#libuv.has(tid)) return "libuv";
    return this.#startup.has(tid) ? "v8" : "workers";
  }

  since(start: Sample): Split {
    const { user, system } = process.cpuUsage(start.total);
    const total = user + system;
    const groups = Object.fromEntries(GROUPS.map((group) => [group, 0])) as Record<Group, number>;
    for (const [tid, ticks] of threadTicks()) {
      groups[this.group(tid)] += (ticks - (start.ticks.get(tid) ?? 0)) * TICK_MICROS;
    }
    // Ticks are coarse; what the live threads do not account for is the exited threads' share.
    const live = GROUPS.reduce((sum, group) => sum + groups[group], 0);
    groups.other += Math.max(0, total - live);
    return { total, groups };
  }
}
