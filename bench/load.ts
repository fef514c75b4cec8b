/**
 * The load generator every HTTP and gRPC suite uses: a child process, so that the server process's
 * CPU is its own, sending over lean hand-written clients (bench/loadChild.ts).
 */
import { fork, type ChildProcess } from "node:child_process";

export interface Request {
  method: "GET" | "POST";
  /** The HTTP path with its query, or the gRPC method's path. */
  path: string;
  body?: Uint8Array;
  contentType?: string;
}

export interface Plan {
  /** HTTP/1.1, one keep-alive connection per request in flight; or gRPC, all on one HTTP/2 session. */
  protocol: "http" | "grpc";
  /** host:port */
  address: string;
  concurrency: number;
  /** Sent in turn, from the first again after the last, until `count` are answered or time is up. */
  requests: Request[];
  count?: number;
  durationMs?: number;
  /**
   * Each connection walks pages: it appends `&cursor=` and the `next.cursor` of its last JSON answer,
   * and starts from its request again when there is none.
   */
  followCursor?: boolean;
}

export interface LoadResult {
  /** Requests answered, successful or not. */
  done: number;
  /** Status (HTTP) or grpc-status → count of the answers that were not successes. */
  failures: Record<string, number>;
  elapsedMs: number;
  /** The generator's own CPU (user + system) over the round, in µs. */
  cpuMicros: number;
  p50Ms: number;
  p99Ms: number;
}

export class LoadGenerator {
  readonly #child: ChildProcess;

  constructor() {
    // Inherits --import tsx; the advanced serialization carries message bytes as they are.
    this.#child = fork(new URL("./loadChild.ts", import.meta.url).pathname, [], {
      serialization: "advanced",
    });
  }

  /**
   * Hands the generator a plan: it builds the requests and opens its connections, so that neither
   * the transfer nor the connecting falls in the round that `go` runs.
   */
  async prepare(plan: Plan): Promise<void> {
    await this.#ask(plan);
  }

  /** Runs the prepared plan. */
  async go(): Promise<LoadResult> {
    return (await this.#ask("go")) as LoadResult;
  }

  /** Prepares and runs a plan. */
  async run(plan: Plan): Promise<LoadResult> {
    await this.prepare(plan);
    return this.go();
  }

  #ask(message: Plan | "go"): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the load generator exited (${code})`));
      this.#child.once("exit", exited);
      this.#child.once("message", (answer) => {
        this.#child.off("exit", exited);
        resolve(answer);
      });
      this.#child.send(message);
    });
  }

  close(): void {
    this.#child.kill();
  }
}

/** "; NOT OK: 3 × 500" when some answers failed, else nothing. */
export function describeFailures(result: LoadResult): string {
  const entries = Object.entries(result.failures);
  return entries.length === 0
    ? ""
    : `; NOT OK: ${entries.map(([status, n]) => `${n} × ${status}`).join(", ")}`;
}
