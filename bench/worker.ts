import { spawnWorker } from "../src/workers.js";

/**
 * Runs the TypeScript module at `moduleUrl` on a worker thread (so that load generation does not
 * compete with the server for the main thread) and resolves with the first message it posts.
 */
export function runInWorker<Result>(moduleUrl: string, job: unknown): Promise<Result> {
  return new Promise((resolve, reject) => {
    const worker = spawnWorker(new URL(moduleUrl), job);
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the load worker exited (${code}) without an answer`)));
  });
}
