/**
 * Worker threads for the parts' CPU work (signature checks). Run from the TypeScript sources (tests,
 * bench), a worker needs the tsx loader the main thread was started with: Node 20 does not hand
 * `--import` hooks down to worker threads, so the worker registers it before importing its module.
 */
import { Worker } from "node:worker_threads";

/** The module `name` beside `importMetaUrl`, in the same language (.ts under tsx, .js from dist/). */
export function siblingModule(importMetaUrl: string, name: string): URL {
  return new URL(`./${name}${importMetaUrl.endsWith(".ts") ? ".ts" : ".js"}`, importMetaUrl);
}

/**
 * Starts `module` on a worker thread. `preload` names packages imported first, straight from Node,
 * when the loader is needed: through it, a package of hundreds of modules (viem) takes seconds.
 */
export function spawnWorker(module: URL, workerData: unknown, preload: readonly string[] = []): Worker {
  if (!module.pathname.endsWith(".ts")) return new Worker(module, { workerData });
  const preloaded = JSON.stringify(preload.map((name) => import.meta.resolve(name)));
  const loader = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const code = `Promise.all(${preloaded}.map((url) => import(url)))
    .then(() => import(${loader}))
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(code, { eval: true, workerData });
}
