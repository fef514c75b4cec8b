/**
 * Name registry throughput over HTTP keep-alive with 32 requests in flight, against a registry on a
 * SQLite file holding 100,000 transfers: POST /transfers registrations/s (target: ≥ 80% of the raw
 * EIP-712 recover rate measured in the same run) and GET /transfers?name= requests/s (target:
 * ≥ 10,000). The server runs on this thread (its signature threads beside it); the load comes from
 * a worker thread.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import type { EventLoopUtilization } from "node:perf_hooks";
import { join } from "node:path";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { runInWorker } from "./worker.js";
import { type Address, type Hex, recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createDevchain } from "../src/devchain/index.js";
import { createLogger, listen } from "../src/http/index.js";
import { usernameProofTypedData } from "../src/protocol/eip712/usernameProof.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { createRegistry } from "../src/registry/index.js";
import { registryMigrations } from "../src/registry/migrations/index.js";
import { recordTransfer } from "../src/registry/store.js";
import type { RegistryTables } from "../src/registry/tables.js";
import { migrate, openDatabase, serializedTransaction } from "../src/storage/index.js";

const SEEDED = 100_000;
const SEED_BATCH = 1_000;
const REGISTRATIONS = 2_000;
const CONCURRENCY = 32;
const RECOVER_MS = 3_000;
const WARMUP_MS = 1_000;
const MEASURE_MS = 5_000;

type LoadJob =
  | { kind: "castnet-registry-load"; base: string; scenario: "post"; bodies: string[] }
  | { kind: "castnet-registry-load"; base: string; scenario: "get"; names: number; durationMs: number };

interface LoadResult {
  done: number;
  /** Status → count of the replies that were not 200. */
  failures: Record<string, number>;
  elapsedMs: number;
}

function rate(count: number, ms: number): number {
  return (count / ms) * 1000;
}

const seededName = (i: number) => `seed${i}`;

/** 100,000 registrations written straight through the store: the GET benchmark only reads them. */
async function seed(path: string): Promise<void> {
  const database = openDatabase<RegistryTables>({ engine: "sqlite", path });
  await migrate(database, "registry", registryMigrations);
  const timestamp = Math.floor(Date.now() / 1000) - 30 * 24 * 60 * 60;
  const signature = `0x${"11".repeat(65)}` as Hex;
  for (let from = 0; from < SEEDED; from += SEED_BATCH) {
    await serializedTransaction(database, "registry", async (trx) => {
      for (let i = from; i < from + SEED_BATCH; i++) {
        await recordTransfer(trx, {
          timestamp: timestamp + i,
          username: seededName(i),
          owner: `0x${(i + 1).toString(16).padStart(40, "0")}` as Address,
          from: 0,
          to: 1_000_000 + i,
          userSignature: signature,
          serverSignature: signature,
          userFid: 1_000_000 + i,
        });
      }
    });
  }
  await database.close();
}

/** viem's EIP-712 signer recovery on one thread: hashing the typed data and recovering the key. */
async function recoverRate(): Promise<number> {
  const account = privateKeyToAccount(generatePrivateKey());
  const typedData = usernameProofTypedData(NEUTRAL, {
    name: "benchmark",
    timestamp: Math.floor(Date.now() / 1000),
    owner: account.address,
  });
  const signature = await account.signTypedData(typedData);
  let count = 0;
  const started = performance.now();
  while (performance.now() - started < RECOVER_MS) {
    await recoverTypedDataAddress({ ...typedData, signature });
    count++;
  }
  return rate(count, performance.now() - started);
}

export async function benchRegistry(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-registry-"));
  const logger = createLogger("silent");
  const registryPath = join(dir, "registry.sqlite");
  let seeding = performance.now();
  await seed(registryPath);
  console.log(
    `seeded ${SEEDED.toLocaleString()} transfers in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  seeding = 0;

  // Fids are registered in one block; the timer never fires during the run.
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger,
    blockTimeSeconds: 3_600,
  });
  const registry = await createRegistry({
    database: { engine: "sqlite", path: registryPath },
    logger,
    chain: devchain.chain,
    naming: NEUTRAL,
    rateLimit: false,
  });
  try {
    const users = Array.from({ length: REGISTRATIONS }, () => privateKeyToAccount(generatePrivateKey()));
    const fids: number[] = [];
    for (const user of users) fids.push((await devchain.chain.submitRegister({ custody: user.address })).fid);
    await devchain.chain.mine();
    const timestamp = Math.floor(Date.now() / 1000);
    const bodies = await Promise.all(
      users.map(async (user, i) => {
        const name = `bench${i}`;
        const signature = await user.signTypedData(
          usernameProofTypedData(NEUTRAL, { name, timestamp, owner: user.address }),
        );
        const fid = fids[i]!;
        return JSON.stringify({ name, from: 0, to: fid, fid, owner: user.address, timestamp, signature });
      }),
    );
    const base = await listen(registry.app, "registry", "127.0.0.1", 0);

    const recover = await recoverRate();
    console.log(`EIP-712 signer recovery (viem, one thread): ${Math.round(recover).toLocaleString()}/s`);

    const beforePost = performance.eventLoopUtilization();
    const posted = await load({ kind: "castnet-registry-load", base, scenario: "post", bodies });
    const postRate = rate(posted.done, posted.elapsedMs);
    console.log(
      `POST /transfers: ${Math.round(postRate).toLocaleString()} registrations/s ` +
        `(${Math.round((postRate / recover) * 100)}% of the recovery rate; target ≥ 80%) ` +
        `over ${posted.done.toLocaleString()} registrations at concurrency ${CONCURRENCY}${describeFailures(posted)}`,
    );
    printBusy(performance.eventLoopUtilization(beforePost), posted.done, "registration");

    const getJob = { kind: "castnet-registry-load", base, scenario: "get", names: SEEDED } as const;
    await load({ ...getJob, durationMs: WARMUP_MS });
    const idle = performance.eventLoopUtilization();
    const got = await load({ ...getJob, durationMs: MEASURE_MS });
    const busy = performance.eventLoopUtilization(idle);
    console.log(
      `GET /transfers?name=: ${Math.round(rate(got.done, got.elapsedMs)).toLocaleString()} requests/s ` +
        `(target ≥ 10,000) at concurrency ${CONCURRENCY} over ${MEASURE_MS / 1000} s${describeFailures(got)}`,
    );
    printBusy(busy, got.done, "request");
  } finally {
    await registry.close();
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The server thread's busy time per request (signature threads not included). */
function printBusy(busy: EventLoopUtilization, requests: number, unit: string): void {
  const perRequestUs = (busy.active * 1000) / requests;
  console.log(
    `  server thread busy ${Math.round(perRequestUs)} µs per ${unit} (${Math.round(busy.utilization * 100)}% utilised)`,
  );
}

function describeFailures(result: LoadResult): string {
  const entries = Object.entries(result.failures);
  return entries.length === 0
    ? ""
    : `; NOT 200: ${entries.map(([status, n]) => `${n} × ${status}`).join(", ")}`;
}

function load(job: LoadJob): Promise<LoadResult> {
  return runInWorker(import.meta.url, job);
}

/** The load generator (worker thread): CONCURRENCY loops, each with one request in flight. */
async function generateLoad(job: LoadJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const failures: Record<string, number> = {};
  let done = 0;

  const send = (method: string, path: string, body?: string) =>
    new Promise<number>((resolve, reject) => {
      const headers = body === undefined ? {} : { "content-type": "application/json" };
      const req = request(`${job.base}${path}`, { agent, method, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(body);
    });
  const count = (status: number) => {
    if (status === 200) done++;
    else failures[status] = (failures[status] ?? 0) + 1;
  };

  const started = performance.now();
  if (job.scenario === "post") {
    let next = 0;
    const loop = async () => {
      while (next < job.bodies.length) count(await send("POST", "/transfers", job.bodies[next++]));
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  } else {
    const stopAt = started + job.durationMs;
    const loop = async () => {
      while (performance.now() < stopAt) {
        count(await send("GET", `/transfers?name=${seededName(Math.floor(Math.random() * job.names))}`));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  }
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { done, failures, elapsedMs };
}

if (!isMainThread && (workerData as LoadJob | undefined)?.kind === "castnet-registry-load") {
  parentPort!.postMessage(await generateLoad(workerData as LoadJob));
}
