import { type Kysely, sql } from "kysely";
import { type Database, serializedTransaction } from "../storage/index.js";

interface Job<Tables> {
  work(trx: Kysely<Tables>): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const MAX_BATCH = 64;

/**
 * Group commit: jobs that arrive while a transaction is committing wait and then run together, each
 * in a savepoint of one serialised transaction, so a burst of writes pays for one durable commit
 * (an fsync) instead of one each. Every job still sees the writes of the jobs before it; a job that
 * throws undoes only its own writes. Jobs learn their outcome after the commit; when the commit fails,
 * each job of the batch is tried alone.
 */
export class GroupCommit<Tables> {
  private readonly queue: Job<Tables>[] = [];
  private draining = false;

  constructor(
    private readonly database: Database<Tables>,
    private readonly lockKey: string,
  ) {}

  run<Result>(work: (trx: Kysely<Tables>) => Promise<Result>): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.queue.length > 0) await this.commit(this.queue.splice(0, MAX_BATCH));
    this.draining = false;
  }

  private async commit(batch: Job<Tables>[]): Promise<void> {
    let outcomes: (() => void)[];
    try {
      // Outcomes are kept per attempt: the storage layer may run the transaction again.
      outcomes = await serializedTransaction(this.database, this.lockKey, async (trx) => {
        const settled: (() => void)[] = [];
        for (const job of batch) {
          await sql`savepoint group_commit_job`.execute(trx);
          try {
            const value = await job.work(trx);
            settled.push(() => job.resolve(value));
          } catch (error) {
            await sql`rollback to savepoint group_commit_job`.execute(trx);
            settled.push(() => job.reject(error));
          }
          await sql`release savepoint group_commit_job`.execute(trx);
        }
        return settled;
      });
    } catch (error) {
      // A fault of the transaction itself (not a job's refusal) fails the whole batch: each job is
      // then run alone, so that one job's fault cannot fail the others (the hub's merge groups do the same).
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const job of batch) await this.commit([job]);
      return;
    }
    for (const settle of outcomes) settle();
  }
}
