/**
 * Stateless validation of submitted bytes, in a pool of worker threads: signature checks dominate
 * the cost of a submit, so they run beside the thread that serves HTTP and commits merges.
 * `workers: 0` validates on the calling thread.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { Histogram } from "prom-client";
import { HubError, isHubErrorCode, type HubErrorCode } from "../../protocol/errors.js";
import { decodeMessage } from "../../protocol/message.js";
import type { NamingProfile } from "../../protocol/naming.js";
import type { KeyAuthority } from "../../protocol/validation/index.js";
import { validateMessage } from "../../protocol/validation/index.js";
import { siblingModule, spawnWorker } from "../../workers.js";

export interface VerifyRequest {
  id: number;
  bytes: Uint8Array;
  /** Unix ms: "now" for the future-timestamp bound. */
  now: number;
}

export type VerifyVerdict =
  | { id: number; errCode: HubErrorCode; message: string }
  | { id: number; errCode: null; keyAuthority?: KeyAuthority };

/**
 * A batch as it crosses to a worker: the messages back to back in one buffer, transferred rather
 * than copied, with where each ends, its request id and its "now".
 */
export interface VerifyBatch {
  bytes: Uint8Array;
  ends: Uint32Array;
  ids: Float64Array;
  nows: Float64Array;
}

/** A worker's answer: the ids that passed, the failures with their errors, what key messages' signatures recovered. */
export interface VerifyReply {
  passed: Float64Array;
  failed: { id: number; errCode: HubErrorCode; message: string }[];
  keyAuthorities: { id: number; authority: KeyAuthority }[];
}

function packBatch(requests: readonly VerifyRequest[]): VerifyBatch {
  let length = 0;
  for (const request of requests) length += request.bytes.length;
  const bytes = new Uint8Array(length);
  const ends = new Uint32Array(requests.length);
  const ids = new Float64Array(requests.length);
  const nows = new Float64Array(requests.length);
  let offset = 0;
  requests.forEach((request, i) => {
    bytes.set(request.bytes, offset);
    offset += request.bytes.length;
    ends[i] = offset;
    ids[i] = request.id;
    nows[i] = request.now;
  });
  return { bytes, ends, ids, nows };
}

export async function validateBatch(batch: VerifyBatch, profile: NamingProfile): Promise<VerifyReply> {
  const verdicts = await Promise.all(
    Array.from(batch.ids, (id, i) =>
      validateBytes(
        {
          id,
          bytes: batch.bytes.subarray(i === 0 ? 0 : batch.ends[i - 1], batch.ends[i]),
          now: batch.nows[i]!,
        },
        profile,
      ),
    ),
  );
  const passed = new Float64Array(verdicts.filter((v) => v.errCode === null).map((v) => v.id));
  const failed = verdicts.flatMap((v) => (v.errCode === null ? [] : [v]));
  const keyAuthorities = verdicts.flatMap((v) =>
    v.errCode === null && v.keyAuthority !== undefined ? [{ id: v.id, authority: v.keyAuthority }] : [],
  );
  return { passed, failed, keyAuthorities };
}

async function validateBytes(request: VerifyRequest, profile: NamingProfile): Promise<VerifyVerdict> {
  try {
    const { message, dataBytes } = decodeMessage(request.bytes);
    const result = await validateMessage(message, dataBytes, { now: () => request.now, profile });
    if (result.ok) return { id: request.id, errCode: null, keyAuthority: result.keyAuthority };
    return { id: request.id, errCode: result.error.errCode, message: result.error.message };
  } catch (error) {
    if (error instanceof HubError) return { id: request.id, errCode: error.errCode, message: error.message };
    return { id: request.id, errCode: "bad_request.validation_failure", message: "invalid message" };
  }
}

/** The verdict of the stateless checks: the refusal, or for a key message what its signatures recovered. */
export interface Verified {
  error?: HubError;
  keyAuthority?: KeyAuthority;
}

/** The verdict of every message that passed and carries no key authority. */
const PASSED: Verified = Object.freeze({});

export interface Verifier {
  validate(bytes: Uint8Array, now: number): Promise<Verified>;
  /** Messages waiting for a free thread (GET /metrics). */
  readonly queued: number;
  close(): Promise<void>;
}

function toVerified(verdict: VerifyVerdict): Verified {
  if (verdict.errCode === null) {
    return verdict.keyAuthority === undefined ? PASSED : { keyAuthority: verdict.keyAuthority };
  }
  const code = isHubErrorCode(verdict.errCode) ? verdict.errCode : "bad_request.validation_failure";
  return { error: new HubError(code, verdict.message) };
}

function inlineVerifier(profile: NamingProfile): Verifier {
  return {
    validate: async (bytes, now) => toVerified(await validateBytes({ id: 0, bytes, now }, profile)),
    queued: 0,
    close: async () => undefined,
  };
}

function spawn(profile: NamingProfile): Worker {
  // Validation loads viem at its first EIP-712 claim; preloaded, that import skips the TypeScript loader.
  return spawnWorker(siblingModule(import.meta.url, "verifyWorker"), { profile: profile.name }, ["viem"]);
}

interface Waiting {
  request: VerifyRequest;
  /** Workers that died holding this request. */
  losses: number;
  resolve(verified: Verified): void;
  reject(error: Error): void;
}

/** Workers a request may lose before it is answered "unavailable" rather than tried again. */
const MAX_LOSSES = 2;
/**
 * Batches a worker may hold at once: the next waits in its queue while it checks one, so that it
 * does not sit idle while this thread is busy (committing a group, say) before sending it more.
 */
const BATCHES_PER_WORKER = 2;
/** Workers in a row that may die before they are ready before the pool stops starting new ones. */
const MAX_FAILED_STARTS = 3;

function unavailable(reason: string): Verified {
  return { error: new HubError("unavailable", `the message could not be verified: ${reason}`) };
}

/**
 * Each worker holds at most BATCHES_PER_WORKER batches: requests that arrive while every worker is
 * full wait and leave together as the next batch, so that batches grow with the load and the cost
 * of waking a thread is shared by many messages. A worker that dies is replaced, and the requests
 * it held are tried again on another; if workers die as they start, the pool gives up and answers
 * every request "unavailable" rather than keep them waiting.
 */
export class WorkerPool implements Verifier {
  readonly #workers: Worker[] = [];
  /** Each worker once for every batch it may take more (BATCHES_PER_WORKER at most). */
  readonly #free: Worker[] = [];
  /** The ids of the requests in the batches each worker holds. */
  readonly #held = new Map<Worker, Set<number>>();
  readonly #waiting = new Map<number, Waiting>();
  #queue: VerifyRequest[] = [];
  #nextId = 1;
  #scheduled = false;
  #failedStarts = 0;
  #closed = false;

  /** `batchSizes`, when given, observes the size of every batch sent to a thread. */
  constructor(
    count: number,
    private readonly profile: NamingProfile,
    private readonly batchSizes?: Histogram,
  ) {
    for (let i = 0; i < count; i++) this.#start();
  }

  /** The running workers (tests stop one to see the pool recover). */
  get threads(): readonly Worker[] {
    return this.#workers;
  }

  get queued(): number {
    return this.#queue.length;
  }

  validate(bytes: Uint8Array, now: number): Promise<Verified> {
    if (this.#workers.length === 0) return Promise.resolve(unavailable("no verifier thread is running"));
    const id = this.#nextId++;
    // Idle workers do not keep the process alive; busy ones do, until their answers arrive.
    if (this.#waiting.size === 0) for (const worker of this.#workers) worker.ref();
    return new Promise((resolve, reject) => {
      const request = { id, bytes, now };
      this.#waiting.set(id, { request, losses: 0, resolve, reject });
      this.#queue.push(request);
      this.#schedule();
    });
  }

  #start(): void {
    const worker = spawn(this.profile);
    let ready = false;
    worker.on("message", (reply: VerifyReply | "ready") => {
      if (reply === "ready") {
        ready = true;
        this.#failedStarts = 0;
        this.#held.set(worker, new Set());
        for (let i = 0; i < BATCHES_PER_WORKER; i++) this.#free.push(worker);
      } else {
        const held = this.#held.get(worker)!;
        for (const { id, authority } of reply.keyAuthorities) {
          held.delete(id);
          this.#settle(id, { keyAuthority: authority });
        }
        for (const id of reply.passed) {
          // Settled above when it carried an authority: settling is once per id.
          if (held.delete(id)) this.#settle(id, PASSED);
        }
        for (const verdict of reply.failed) {
          held.delete(verdict.id);
          this.#settle(verdict.id, toVerified(verdict));
        }
        this.#free.push(worker);
      }
      if (this.#queue.length > 0) this.#flush();
      else if (this.#waiting.size === 0) for (const w of this.#workers) w.unref();
    });
    // An "error" is followed by "exit": the exit alone accounts for the worker's end.
    worker.on("error", () => undefined);
    worker.on("exit", () => this.#lost(worker, ready));
    worker.unref();
    this.#workers.push(worker);
  }

  /** A worker ended: its requests are queued again (or refused after MAX_LOSSES), and it is replaced. */
  #lost(worker: Worker, wasReady: boolean): void {
    remove(this.#workers, worker);
    while (this.#free.includes(worker)) remove(this.#free, worker);
    const held = this.#held.get(worker) ?? [];
    this.#held.delete(worker);
    if (this.#closed) return;
    for (const id of held) {
      const waiting = this.#waiting.get(id);
      if (waiting === undefined) continue;
      if (++waiting.losses >= MAX_LOSSES) this.#settle(id, unavailable("its verifier thread failed"));
      else this.#queue.push(waiting.request);
    }
    if (!wasReady) this.#failedStarts++;
    if (this.#failedStarts < MAX_FAILED_STARTS) this.#start();
    if (this.#workers.length === 0) {
      for (const id of [...this.#waiting.keys()])
        this.#settle(id, unavailable("no verifier thread is running"));
      this.#queue = [];
    }
    this.#schedule();
  }

  /** Sends the queue on the next turn of the event loop, so that everything arriving in this turn travels together. */
  #schedule(): void {
    if (this.#scheduled || this.#free.length === 0 || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#flush();
    });
  }

  #settle(id: number, verified: Verified): void {
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    waiting?.resolve(verified);
  }

  /** Shares the queue among the workers that may take a batch, one batch each. */
  #flush(): void {
    if (this.#free.length === 0 || this.#queue.length === 0) return;
    const workers = [...new Set(this.#free)];
    const queue = this.#queue;
    this.#queue = [];
    const share = Math.ceil(queue.length / workers.length);
    for (let i = 0, w = 0; i < queue.length; i += share, w++) {
      const requests = queue.slice(i, i + share);
      this.batchSizes?.observe(requests.length);
      const batch = packBatch(requests);
      const buffers = [
        batch.bytes.buffer,
        batch.ends.buffer,
        batch.ids.buffer,
        batch.nows.buffer,
      ] as ArrayBuffer[];
      const worker = workers[w]!;
      remove(this.#free, worker);
      const held = this.#held.get(worker)!;
      for (const request of requests) held.add(request.id);
      worker.postMessage(batch, buffers);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#workers].map((worker) => worker.terminate()));
    for (const waiting of this.#waiting.values()) waiting.reject(new Error("verifier closed"));
    this.#waiting.clear();
  }
}

function remove<T>(list: T[], item: T): void {
  const at = list.indexOf(item);
  if (at >= 0) list.splice(at, 1);
}

export function createVerifier(
  workers: number | undefined,
  profile: NamingProfile,
  batchSizes?: Histogram,
): Verifier {
  // One core stays with the thread that serves HTTP and commits merges: a pool as large as the
  // machine takes turns with it, and hands out smaller batches whose thread hops cost more.
  const count = workers ?? Math.max(1, availableParallelism() - 1);
  return count > 0 ? new WorkerPool(count, profile, batchSizes) : inlineVerifier(profile);
}
