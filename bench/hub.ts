/**
 * Hub benchmarks (SQLite in a temp dir; the hub runs in this process, the load comes from the
 * generator's child process, so that this process's CPU and memory are the hub's):
 *
 * hub-submit: POST /v1/submitMessage at concurrency 32 over keep-alive: a warm-up round of casts,
 *     then a measured round of other casts; the hub's CPU per accepted message against one Ed25519
 *     verify (target ≤ 3x), and throughput against one core's verify rate (target ≥ 0.5);
 * hub-reads: GET /v1/castsByFid?pageSize=100 with 1,000,000 messages stored: requests/s (target
 *     ≥ 3,000), p99 (target ≤ 20 ms), CPU per request; and the resident memory of the hub process
 *     holding them (target ≤ 550 MiB). A suite of its own, so that the memory is that of a hub
 *     opened on the store, not also what a submit round left in the process.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDevchain, type Devchain } from "../src/devchain/index.js";
import { createLogger, listen } from "../src/http/index.js";
import { createHub } from "../src/hub/index.js";
import { generateEd25519KeyPair } from "../src/protocol/ed25519.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { currentProtocolTime } from "../src/protocol/time.js";
import { castData, FIRST_SEEDED_FID, noNames, registerFids, signer } from "./casts.js";
import type { BenchContext } from "./context.js";
import { ed25519VerifyMicros } from "./floors.js";
import { LoadGenerator, type Plan, type Request } from "./load.js";
import { COMPONENTS, profileComponents } from "./components.js";
import { measureRound, type Round, steadyRound } from "./round.js";

const FULL = {
  fids: 500,
  submits: 20_000,
  verifyMs: 2_000,
  stored: 1_000_000,
  warmUps: 10_000,
  readMs: 5_000,
};
const QUICK = { fids: 100, submits: 4_000, verifyMs: 500, stored: 100_000, warmUps: 1_000, readMs: 2_000 };
const CONCURRENCY = 32;
/** Casts per seeded fid: a full page. */
const SEEDED_PER_FID = 100;
const MiB = 2 ** 20;

/**
 * Seeds in a child process (bench/hubSeed.ts): writing a million messages here would leave this
 * process, whose memory is the hub's figure, holding the seeding's garbage.
 */
function seed(path: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL("./hubSeed.ts", import.meta.url).pathname, [
      path,
      String(count),
      String(SEEDED_PER_FID),
    ]);
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`seeding exited with ${code}`))));
  });
}

function openHub(path: string, devchain: Devchain) {
  return createHub({
    database: { engine: "sqlite", path },
    logger: createLogger("silent"),
    naming: NEUTRAL,
    network: "devnet",
    chain: devchain.chain,
    registry: noNames,
  });
}

/**
 * A further round with the server's thread profiled, printed as the measured round's main-thread
 * CPU per operation split by component (the profiler's own thread makes the profiled round's
 * figures larger; its shares are what is used).
 */
async function profiledRound(measured: Round, run: () => Promise<Round>): Promise<void> {
  const profile = await profileComponents();
  await run();
  const shares = await profile.stop();
  const mainMicros = measured.server.groups.main / measured.load.done;
  console.log(
    `   main thread ${Math.round(mainMicros)} µs/message by component (a profiled round of as many casts):`,
  );
  for (const component of COMPONENTS)
    console.log(
      `     ${component.padEnd(40)} ${Math.round(shares.get(component)! * mainMicros)
        .toString()
        .padStart(4)}`,
    );
}

/** `count` casts per fid, each fid's `first`th onwards, oldest first, fids interleaved. */
function submits(keys: Uint8Array[], fids: number[], first: number, count: number): Request[] {
  const signers = keys.map((key) => signer(key));
  const now = currentProtocolTime() - 10_000;
  const requests: Request[] = [];
  for (let n = first; n < first + count; n++) {
    fids.forEach((fid, i) =>
      requests.push({
        method: "POST",
        path: "/v1/submitMessage",
        contentType: "application/octet-stream",
        body: signers[i]!(castData(fid, now + n, `benchmark cast ${n}`)),
      }),
    );
  }
  return requests;
}

/** A devchain and a load generator for one suite, in a temp dir, removed when `run` settles. */
async function withSetup(
  run: (setup: { hubPath: string; devchain: Devchain; generator: LoadGenerator }) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-hub-"));
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger: createLogger("silent"),
    blockTimeSeconds: 3_600,
  });
  const generator = new LoadGenerator();
  try {
    await run({ hubPath: join(dir, "hub.sqlite"), devchain, generator });
  } finally {
    generator.close();
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchHubSubmit({ quick, cpu, summary }: BenchContext): Promise<void> {
  const size = quick ? QUICK : FULL;
  await withSetup(async ({ hubPath, devchain, generator }) => {
    const verifyMicros = await ed25519VerifyMicros(size.verifyMs);
    const keys = Array.from({ length: size.fids }, () => generateEd25519KeyPair().privateKey);
    const fids = await registerFids(devchain.chain, keys, 100);
    const hub = await openHub(hubPath, devchain);
    await hub.service.syncChain();
    const address = new URL(await listen(hub.app, "hub", "127.0.0.1", 0)).host;
    const perFid = size.submits / size.fids;
    const plan = (requests: Request[]): Plan => ({
      protocol: "http",
      address,
      concurrency: CONCURRENCY,
      requests,
      count: requests.length,
    });
    const submitted = await steadyRound(
      cpu,
      generator,
      plan(submits(keys, fids, 0, perFid)),
      plan(submits(keys, fids, perFid, perFid)),
    );
    const verifyShare = submitted.load.done / submitted.load.elapsedMs / (1000 / verifyMicros);
    summary.report({
      name: "hub POST /v1/submitMessage",
      detail:
        `${size.submits.toLocaleString("en-US")} casts from ${size.fids} fids at concurrency ${CONCURRENCY}, ` +
        `after a warm-up round of as many others`,
      unit: "message",
      round: submitted,
      floor: { name: "Ed25519 verify", micros: verifyMicros },
      maxRatio: 3,
      targets: [
        {
          figure: `throughput ${verifyShare.toFixed(2)} of one core's verify rate`,
          goal: "≥ 0.5",
          met: verifyShare >= 0.5,
        },
      ],
    });
    // Signed before the profiler starts: the casts' signing is the benchmark's work, not the hub's.
    const profiled = plan(submits(keys, fids, 2 * perFid, perFid));
    await profiledRound(submitted, () => measureRound(cpu, generator, profiled));
    await hub.close();
  });
}

export async function benchHubReads({ quick, cpu, summary }: BenchContext): Promise<void> {
  const size = quick ? QUICK : FULL;
  await withSetup(async ({ hubPath, devchain, generator }) => {
    const seeding = performance.now();
    await seed(hubPath, size.stored);
    console.log(
      `   (seeded ${size.stored.toLocaleString("en-US")} messages in ${((performance.now() - seeding) / 1000).toFixed(0)} s)`,
    );
    const hub = await openHub(hubPath, devchain);
    const address = new URL(await listen(hub.app, "hub", "127.0.0.1", 0)).host;
    const stored = (await hub.service.info(true)).dbStats!.numMessages;
    const seededFids = Math.ceil(size.stored / SEEDED_PER_FID);
    const reads: Request[] = Array.from({ length: 20_000 }, () => ({
      method: "GET",
      path: `/v1/castsByFid?fid=${FIRST_SEEDED_FID + Math.floor(Math.random() * seededFids)}&pageSize=100`,
    }));
    const read = (limit: { count: number } | { durationMs: number }): Plan => ({
      protocol: "http",
      address,
      concurrency: CONCURRENCY,
      requests: reads,
      ...limit,
    });
    const got = await steadyRound(
      cpu,
      generator,
      read({ count: size.warmUps }),
      read({ durationMs: size.readMs }),
    );
    const perSecond = (got.load.done / got.load.elapsedMs) * 1000;
    const rss = process.memoryUsage().rss / MiB;
    summary.report({
      name: "hub GET /v1/castsByFid",
      detail:
        `pageSize 100, ${stored.toLocaleString("en-US")} messages stored, concurrency ${CONCURRENCY}, ` +
        `${size.readMs / 1000} s after a warm-up of ${size.warmUps.toLocaleString("en-US")} requests`,
      unit: "request",
      round: got,
      targets: [
        {
          figure: `${Math.round(perSecond).toLocaleString("en-US")} requests/s`,
          goal: "≥ 3,000",
          met: perSecond >= 3_000,
        },
        { figure: `p99 ${got.load.p99Ms.toFixed(1)} ms`, goal: "≤ 20 ms", met: got.load.p99Ms <= 20 },
        {
          figure: `hub resident memory ${Math.round(rss)} MiB holding ${stored.toLocaleString("en-US")}`,
          goal: "≤ 550 MiB",
          met: rss <= 550,
        },
      ],
    });
    await hub.close();
  });
}
