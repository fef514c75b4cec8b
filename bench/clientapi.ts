/**
 * Client API reads (SQLite in a temp dir; the server runs in this process, the load comes from the
 * generator's child process, 32 requests in flight):
 *
 * (a) GET /v1/channel-followers of a channel with 100,000 followers (20,000 in --quick), each
 *     connection paging to the end and starting again;
 * (b) GET /v1/user-following-channels for fids that follow 50 channels each.
 *
 * Each against a bare Fastify route answering the bytes of one real page (target: ≤ 2.5x its CPU
 * per request), in alternating rounds (floors.ts), with p50 and p99 latency (target: p99 ≤ 10 ms).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClientApi } from "../src/clientapi/index.js";
import { createDevchain } from "../src/devchain/index.js";
import { createLogger, listen } from "../src/http/index.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import type { BenchContext } from "./context.js";
import { againstBareRoute, roundsText } from "./floors.js";
import { LoadGenerator, type Plan, type Request } from "./load.js";

const FULL = { followers: 100_000, warmUps: 10_000, measureMs: 4_000, rounds: 3 };
const QUICK = { followers: 20_000, warmUps: 1_000, measureMs: 1_000, rounds: 3 };
const CHANNELS = 200;
const BUSY_FIDS = 1_000;
const CHANNELS_PER_BUSY_FID = 50;
const CONCURRENCY = 32;
const PAGE_SIZE = 50;

export async function benchClientApi({ quick, cpu, summary }: BenchContext): Promise<void> {
  const size = quick ? QUICK : FULL;
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-clientapi-"));
  const logger = createLogger("silent");
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger,
    blockTimeSeconds: 0,
  });
  // Power badges and sign-ins are not measured here; an activity source with no reactions keeps the rule quiet.
  const api = await createClientApi({
    database: { engine: "sqlite", path: join(dir, "api.sqlite") },
    logger,
    chain: devchain.chain,
    naming: NEUTRAL,
    activity: { reactorsByAuthor: async () => new Map(), profileOf: async () => ({ verifications: [] }) },
  });
  const generator = new LoadGenerator();
  try {
    const { channels, follows } = api.service;
    const start = Math.floor(Date.now() / 1000) - size.followers;
    await channels.create({
      id: "big",
      url: "https://demo.example/channel/big",
      name: "Big",
      imageUrl: "https://demo.example/big.png",
    });
    for (let from = 1; from <= size.followers; from += 10_000) {
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
    const address = new URL(await listen(api.app, "api", "127.0.0.1", 0)).host;

    const scenarios = [
      {
        name: "clientapi GET /v1/channel-followers",
        detail: `${size.followers.toLocaleString("en-US")} followers, limit ${PAGE_SIZE}, each connection paging to the end`,
        route: "/v1/channel-followers",
        requests: [{ method: "GET", path: `/v1/channel-followers?channelId=big&limit=${PAGE_SIZE}` }],
        followCursor: true,
      },
      {
        name: "clientapi GET /v1/user-following-channels",
        detail: `${BUSY_FIDS} fids following ${CHANNELS_PER_BUSY_FID} channels each, limit ${PAGE_SIZE}`,
        route: "/v1/user-following-channels",
        requests: Array.from({ length: BUSY_FIDS }, (_, i) => ({
          method: "GET",
          path: `/v1/user-following-channels?fid=${i + 1}&limit=${PAGE_SIZE}`,
        })),
        followCursor: false,
      },
    ] satisfies { requests: Request[]; [key: string]: unknown }[];

    const timed =
      (scenario: (typeof scenarios)[number]) =>
      (at: string, limit: { count: number } | { durationMs: number }): Plan => ({
        protocol: "http",
        address: at,
        concurrency: CONCURRENCY,
        requests: scenario.requests,
        ...limit,
        followCursor: scenario.followCursor,
      });
    // Both routes warmed before either is measured: the first to run would otherwise also pay for
    // compiling the request path they share (V8's helper threads, docs/performance.md).
    for (const scenario of scenarios) await generator.run(timed(scenario)(address, { count: size.warmUps }));

    for (const scenario of scenarios) {
      // The floor answers one real page (with its cursor, which the generator follows all the same).
      const page = await (await fetch(`http://${address}${scenario.requests[0]!.path}`)).text();
      const measured = await againstBareRoute(
        { cpu, generator },
        address,
        scenario.route,
        page,
        timed(scenario),
        size,
      );
      summary.report({
        name: scenario.name,
        detail: `${scenario.detail}; concurrency ${CONCURRENCY}; rounds of ${size.measureMs / 1000} s after a warm-up of ${size.warmUps.toLocaleString("en-US")} requests; floor: a bare Fastify route answering a real page (${Buffer.byteLength(page).toLocaleString("en-US")} bytes); ${roundsText(measured)}`,
        unit: "request",
        round: measured.round,
        micros: measured.micros,
        floor: { name: "bare route", micros: measured.floor },
        maxRatio: 2.5,
        targets: [
          {
            figure: `p99 ${measured.round.load.p99Ms.toFixed(1)} ms`,
            goal: "≤ 10 ms",
            met: measured.round.load.p99Ms <= 10,
          },
        ],
      });
    }
  } finally {
    generator.close();
    await api.close();
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
