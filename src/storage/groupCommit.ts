/**
 * Group commit, the one way castnet batches writes: jobs that arrive while a batch is committing
 * wait and then commit together in one transaction, so that a burst of writes pays for one durable
 * commit (an fsync) instead of one each. The hub's merge engine and the registry's transfers both
 * use it; each supplies how a batch commits.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "./database.js";
import { serializedTransaction } from "./transaction.js";

/** What one batch's transaction reports: each job's outcome in order, and when they may be told. */
export interface BatchCommitted<Outcome> {
  outcomes: readonly PromiseSettledResult<Outcome>[];
  /** Settles once the batch survives a power cut; its jobs are answered then. Absent: at once. */
  durable?: Promise<void>;
}

interface Waiting<Job, Outcome> {
  job: Job;
  resolve(outcome: Outcome): void;
  reject(error: unknown): void;
}

export class GroupCommit<Job, Outcome> {
  #queue: Waiting<Job, Outcome>[] = [];
  #draining: Promise<void> | undefined;
  /** Committed batches waiting for their commit to be durable before they are answered. */
  readonly #unanswered = new Set<Promise<void>>();

  /**
   * @param commitBatch commits the jobs in one transaction; a job's refusal is its outcome, while a
   *   throw means the transaction itself failed.
   * @param maxBatch the most jobs one transaction takes.
   */
  constructor(
    private readonly commitBatch: (jobs: readonly Job[]) => Promise<BatchCommitted<Outcome>>,
    private readonly maxBatch: number,
  ) {}

  /** Queues a job for the next batch; settles with its outcome once its batch is durable. */
  run(job: Job): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, resolve, reject });
      // Started on the next turn of the event loop, so that everything that arrives in this turn
      // joins the batch.
      this.#draining ??= new Promise<void>((started) => setImmediate(started)).then(() => this.#drain());
    });
  }

  /** Waits until every queued job has committed and been answered. */
  async idle(): Promise<void> {
    await this.#draining;
    await Promise.all(this.#unanswered);
  }

  /**
   * Commits batches until the queue is empty: each batch is what joined while the one before it was
   * committing. No batch waits for more jobs: a timed wait held every job back (docs/performance.md,
   * "Group commit without a timed wait"), while the batches commits form by themselves are large
   * enough.
   */
  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) await this.#commit(this.#queue.splice(0, this.maxBatch));
    } finally {
      this.#draining = undefined;
    }
  }

  async #commit(batch: Waiting<Job, Outcome>[]): Promise<void> {
    let committed: BatchCommitted<Outcome>;
    try {
      committed = await this.commitBatch(batch.map((waiting) => waiting.job));
    } catch (error) {
      // A fault of the transaction itself (not a job's refusal) fails the whole batch: each job is
      // then committed alone, so that one job's fault cannot fail the others.
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const waiting of batch) await this.#commit([waiting]);
      return;
    }
    const answer = () =>
      committed.outcomes.forEach((outcome, i) => {
        if (outcome.status === "fulfilled") batch[i]!.resolve(outcome.value);
        else batch[i]!.reject(outcome.reason);
      });
    if (committed.durable === undefined) return answer();
    const answered = committed.durable.then(answer, (error: unknown) =>
      batch.forEach((waiting) => waiting.reject(error)),
    );
    this.#unanswered.add(answered);
    void answered.finally(() => this.#unanswered.delete(answered));
  }
}

type Work<Tables> = (trx: Kysely<Tables>) => Promise<unknown>;

const MAX_SAVEPOINT_BATCH = 64;

/**
 * Group commit of arbitrary work, each job in a savepoint of one transaction serialised on
 * `lockKey`: every job sees the writes of the jobs before it, and a job that throws undoes only its
 * own writes and is refused with its error.
 */
export class SavepointCommits<Tables> {
  readonly #commits: GroupCommit<Work<Tables>, unknown>;

  constructor(database: Database<Tables>, lockKey: string) {
    this.#commits = new GroupCommit(
      async (jobs) => ({
        outcomes: await serializedTransaction(database, lockKey, async (trx) => {
          // Outcomes are made per attempt: the storage layer may run the transaction again.
          const outcomes: PromiseSettledResult<unknown>[] = [];
          for (const work of jobs) {
            await sql`savepoint group_commit_job`.execute(trx);
            try {
              outcomes.push({ status: "fulfilled", value: await work(trx) });
            } catch (reason) {
              await sql`rollback to savepoint group_commit_job`.execute(trx);
              outcomes.push({ status: "rejected", reason });
            }
            await sql`release savepoint group_commit_job`.execute(trx);
          }
          return outcomes;
        }),
      }),
      MAX_SAVEPOINT_BATCH,
    );
  }

  run<Result>(work: (trx: Kysely<Tables>) => Promise<Result>): Promise<Result> {
    return this.#commits.run(work) as Promise<Result>;
  }
}
