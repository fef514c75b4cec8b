import { Worker } from "node:worker_threads";

/**
 * Runs the TypeScript module at `moduleUrl` on a worker thread (so that load generation does not
 * compete with the server for the main thread) and resolves with the first message it posts. Node 20
 * does not hand the `--import tsx` loader to workers, so the worker registers it before importing.
 */
export function runInWorker<Result>(moduleUrl: string, job: unknown): Promise<Result> {
  return new Promise((resolve, reject) => {
    const script = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
      .then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl)}); })`;
    const worker = new Worker(script, { eval: true, workerData: job });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}
