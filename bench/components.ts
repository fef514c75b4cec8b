/**
 * Where the main thread's CPU goes, by component: a V8 CPU profile of the measured round (taken
 * through node:inspector on the server's own thread) is split by what each sample was running, and
 * the shares are scaled to the thread's CPU time read from /proc. The profiler samples the thread
 * whether or not the kernel runs it, so its shares, not its durations, are what count.
 */
import { Session } from "node:inspector/promises";
import type { Profiler } from "node:inspector";

/** Components of a request's cost on the main thread, in the order they are printed. */
export const COMPONENTS = [
  "HTTP (node, Fastify, castnet hooks)",
  "SQLite statements",
  "Kysely and statement glue",
  "verifier hand-off (postMessage)",
  "merge engine, stores, events",
  "protobuf, validation, JSON",
  "durability (fsync calls)",
  "garbage collection",
  "other (V8, loaders, timers)",
] as const;

export type Component = (typeof COMPONENTS)[number];

/** First rule that matches a frame, walking from the sampled frame to its callers, wins. */
const RULES: [Component, (frame: Profiler.ProfileNode["callFrame"]) => boolean][] = [
  ["garbage collection", (f) => f.functionName === "(garbage collector)"],
  ["durability (fsync calls)", (f) => f.url.includes("backgroundSync")],
  ["verifier hand-off (postMessage)", (f) => f.url.includes("hub/verify.")],
  [
    "SQLite statements",
    (f) => f.url === "" && ["run", "all", "get", "iterate", "exec"].includes(f.functionName),
  ],
  ["SQLite statements", (f) => f.url.includes("sqlite-driver") && f.functionName === "executeQuery"],
  ["Kysely and statement glue", (f) => f.url.includes("/kysely/") || f.url.includes("/storage/")],
  ["protobuf, validation, JSON", (f) => /\/protocol\/|@bufbuild|long\/|blake3/.test(f.url)],
  ["merge engine, stores, events", (f) => f.url.includes("/hub/") && !f.url.includes("/hub/routes/")],
  [
    "HTTP (node, Fastify, castnet hooks)",
    (f) =>
      /_http_|node:net|stream|fastify|find-my-way|light-my-request|\/http\/|\/routes\/|prom-client|pino|avvio/.test(
        f.url,
      ) || ["writev", "writeUtf8String", "writeBuffer", "shutdown"].includes(f.functionName),
  ],
];

/** Starts profiling the calling thread; `stop()` returns each component's share of busy samples. */
export async function profileComponents(): Promise<{ stop(): Promise<Map<Component, number>> }> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 250 });
  await session.post("Profiler.start");
  return {
    async stop() {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      return shares(profile);
    },
  };
}

function shares(profile: Profiler.Profile): Map<Component, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const componentOf = new Map<number, Component | "idle">();
  const classify = (id: number): Component | "idle" => {
    const known = componentOf.get(id);
    if (known !== undefined) return known;
    let found: Component | "idle" = "other (V8, loaders, timers)";
    if (nodes.get(id)!.callFrame.functionName === "(idle)") found = "idle";
    else
      for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
        const frame = nodes.get(at)!.callFrame;
        const rule = RULES.find(([, matches]) => matches(frame));
        if (rule !== undefined) {
          found = rule[0];
          break;
        }
      }
    componentOf.set(id, found);
    return found;
  };
  const time = new Map<Component, number>();
  let busy = 0;
  profile.samples!.forEach((id, i) => {
    const component = classify(id);
    const delta = profile.timeDeltas![i] ?? 0;
    if (component === "idle") return;
    busy += delta;
    time.set(component, (time.get(component) ?? 0) + delta);
  });
  return new Map(COMPONENTS.map((c) => [c, busy === 0 ? 0 : (time.get(c) ?? 0) / busy]));
}
