/**
 * Client API read throughput: channel-followers paged through a channel with 100,000 followers, and
 * user-following-channels for fids that follow 50 channels each. The server runs on this thread on a
 * SQLite file in a temporary directory; the load comes from a worker thread over HTTP keep-alive with
 * 32 requests in flight. Prints requests/s and latency percentiles (target: ≥ 10,000 req/s, p99 ≤ 10 ms).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { runInWorker } from "./worker.js";
import { createClientApi } from "../src/clientapi/index.js";
import { createDevchain } from "../src/devchain/index.js";
import { createLogger, listen } from "../src/http/index.js";
import { NEUTRAL } from "../src/protocol/naming.js";

const FOLLOWERS = 100_000;
const CHANNELS = 200;
const BUSY_FIDS = 1_000;
const CHANNELS_PER_BUSY_FID = 50;
const CONCURRENCY = 32;
const PAGE_SIZE = 50;
const WARMUP_MS = 2_000;
const MEASURE_MS = 10_000;

interface LoadJob {
  kind: "castnet-clientapi-load";
  base: string;
  scenario: "floor" | "followers" | "following";
  durationMs: number;
}

interface LoadResult {
  latenciesMs: number[];
  elapsedMs: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function benchClientApi(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-clientapi-"));
  const logger = createLogger("silent");
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger,
    blockTimeSeconds: 0,
  });
  // Power badges are not measured here; an activity source with no reactions keeps the rule quiet.
  const api = await createClientApi({
    database: { engine: "sqlite", path: join(dir, "api.sqlite") },
    logger,
    chain: devchain.chain,
    naming: NEUTRAL,
    activity: { reactorsByAuthor: async () => new Map() },
  });
  try {
    const { channels, follows } = api.service;
    const start = Math.floor(Date.now() / 1000) - FOLLOWERS;
    const seeding = Date.now();
    await channels.create({
      id: "big",
      url: "https://demo.example/channel/big",
      name: "Big",
      imageUrl: "https://demo.example/big.png",
    });
    for (let from = 1; from <= FOLLOWERS; from += 10_000) {
      const batch = [];
      for (let fid = from; fid < from + 10_000; fid++) batch.push({ fid, followedAt: start + fid });
      await follows.addFollowers("big", batch);
    }
    for (let c = 0; c < CHANNELS; c++) {
      await channels.create({
        id: `channel-${c}`,
        url: `https://demo.example/channel/${c}`,
        name: `Channel ${c}`,
        imageUrl: `https://demo.example/${c}.png`,
        description: `Channel number ${c}, for the benchmark`,
        leadFid: c + 1,
      });
    }
    for (let c = 0; c < CHANNELS; c++) {
      const followers = [];
      for (let fid = 1; fid <= BUSY_FIDS; fid++) {
        if ((fid + c) % (CHANNELS / CHANNELS_PER_BUSY_FID) === 0)
          followers.push({ fid, followedAt: start + c * 7 + fid });
      }
      await follows.addFollowers(`channel-${c}`, followers);
    }
    console.log(
      `seeded ${FOLLOWERS.toLocaleString()} followers of one channel and ${(BUSY_FIDS * CHANNELS_PER_BUSY_FID).toLocaleString()} follows of ${BUSY_FIDS} fids in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
    );

    const base = await listen(api.app, "api", "127.0.0.1", 0);
    // The floor: the same load on the HTTP layer's health route, which touches no database. The
    // gap between it and a real route is what the client API itself costs on this machine.
    for (const scenario of ["floor", "followers", "following"] as const) {
      await load({ kind: "castnet-clientapi-load", base, scenario, durationMs: WARMUP_MS });
      const busyBefore = performance.eventLoopUtilization();
      const result = await load({ kind: "castnet-clientapi-load", base, scenario, durationMs: MEASURE_MS });
      const busy = performance.eventLoopUtilization(busyBefore);
      const sorted = result.latenciesMs.sort((a, b) => a - b);
      const label = {
        floor: "GET /_health (floor: the HTTP layer alone, no database)",
        followers: `GET /v1/channel-followers (100k followers, limit ${PAGE_SIZE}, paging to the end)`,
        following: `GET /v1/user-following-channels (fids following ${CHANNELS_PER_BUSY_FID} channels, limit ${PAGE_SIZE})`,
      }[scenario];
      console.log(label);
      console.log(
        `  ${Math.round((sorted.length / result.elapsedMs) * 1000).toLocaleString()} requests/s at concurrency ${CONCURRENCY}; ` +
          `p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${percentile(sorted, 100).toFixed(2)} ms; ` +
          `${result.errors} errors`,
      );
      // The server thread's busy time per request, in wall-clock time: on an otherwise idle machine this
      // is its CPU cost; other processes competing for the cores inflate it.
      const perRequestUs = (busy.active * 1000) / sorted.length;
      console.log(
        `  server thread busy ${perRequestUs.toFixed(0)} µs per request (${Math.round(busy.utilization * 100)}% of the run); load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")} on ${availableParallelism()} cores`,
      );
    }
  } finally {
    await api.close();
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function load(job: LoadJob): Promise<LoadResult> {
  return runInWorker(import.meta.url, job);
}

/** The load generator (worker thread): CONCURRENCY loops, each walking pages one request at a time. */
async function generateLoad(job: LoadJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latenciesMs: number[] = [];
  let errors = 0;
  const started = performance.now();
  const stopAt = started + job.durationMs;

  const get = (path: string) =>
    new Promise<{ status: number; body: string }>((done, fail) => {
      const req = request(`${job.base}${path}`, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on("error", fail);
      req.end();
    });

  async function loop(index: number) {
    let cursor: string | undefined;
    let fid = 1 + index;
    while (performance.now() < stopAt) {
      const path = {
        floor: "/_health",
        followers: `/v1/channel-followers?channelId=big&limit=${PAGE_SIZE}${cursor ? `&cursor=${cursor}` : ""}`,
        following: `/v1/user-following-channels?fid=${fid}&limit=${PAGE_SIZE}`,
      }[job.scenario];
      const t = performance.now();
      const reply = await get(path);
      latenciesMs.push(performance.now() - t);
      if (reply.status !== 200) {
        errors++;
        cursor = undefined;
        continue;
      }
      if (job.scenario === "followers") {
        cursor = (JSON.parse(reply.body) as { next?: { cursor: string } }).next?.cursor;
      } else if (job.scenario === "following") {
        fid = (fid + CONCURRENCY) % BUSY_FIDS || BUSY_FIDS;
      }
    }
  }

  await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => loop(i)));
  agent.destroy();
  return { latenciesMs, elapsedMs: performance.now() - started, errors };
}

if (!isMainThread && (workerData as LoadJob | undefined)?.kind === "castnet-clientapi-load") {
  parentPort!.postMessage(await generateLoad(workerData as LoadJob));
}
