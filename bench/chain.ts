/**
 * The devchain's JSON-RPC (SQLite in a temp dir; the server runs in this process, the load comes
 * from the generator's child process, 32 requests in flight), each against a bare Fastify route
 * answering the same bytes (target ≤ 2.5x its CPU per request), in alternating rounds (floors.ts):
 *
 * (a) eth_call of IdRegistry.idOf for registered addresses, on a chain of 2,000 fids (500 in --quick);
 * (b) eth_getLogs of the registries over 50 blocks, one Register log each.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeFunctionData, numberToHex, type Address } from "viem";
import { createDevchain } from "../src/devchain/index.js";
import { createLogger, listen } from "../src/http/index.js";
import { idRegistryAbi } from "../src/protocol/registryAbis.js";
import { CONTRACT_ADDRESSES } from "../src/protocol/registryAddresses.js";
import type { BenchContext } from "./context.js";
import { againstBareRoute, roundsText } from "./floors.js";
import { LoadGenerator, type Plan, type Request } from "./load.js";

const FULL = { fids: 2_000, warmUps: 5_000, measureMs: 4_000, rounds: 3 };
const QUICK = { fids: 500, warmUps: 1_000, measureMs: 1_000, rounds: 3 };
const CONCURRENCY = 32;
const LOG_BLOCKS = 50;

const addressOf = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}` as Address;

function rpc(method: string, params: unknown[]): Request {
  return {
    method: "POST",
    path: "/",
    contentType: "application/json",
    body: new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })),
  };
}

export async function benchChain({ quick, cpu, summary }: BenchContext): Promise<void> {
  const size = quick ? QUICK : FULL;
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-chain-"));
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger: createLogger("silent"),
    blockTimeSeconds: 0,
  });
  const generator = new LoadGenerator();
  try {
    for (let i = 0; i < size.fids; i++) await devchain.chain.register({ custody: addressOf(i) });
    const address = new URL(await listen(devchain.app, "devchain", "127.0.0.1", 0)).host;
    const from = Math.max(1, size.fids - 2 * LOG_BLOCKS);
    const scenarios = [
      {
        name: "devchain eth_call IdRegistry.idOf",
        detail: `${size.fids.toLocaleString("en-US")} fids, a different address each request, at latest`,
        requests: Array.from({ length: size.fids }, (_, i) =>
          rpc("eth_call", [
            {
              to: CONTRACT_ADDRESSES.idRegistry,
              data: encodeFunctionData({ abi: idRegistryAbi, functionName: "idOf", args: [addressOf(i)] }),
            },
            "latest",
          ]),
        ),
      },
      {
        name: "devchain eth_getLogs",
        detail: `the three registries over ${LOG_BLOCKS} blocks of one Register log each`,
        requests: Array.from({ length: LOG_BLOCKS }, (_, i) =>
          rpc("eth_getLogs", [
            {
              address: [
                CONTRACT_ADDRESSES.idRegistry,
                CONTRACT_ADDRESSES.keyRegistry,
                CONTRACT_ADDRESSES.storageRegistry,
              ],
              fromBlock: numberToHex(from + i),
              toBlock: numberToHex(from + i + LOG_BLOCKS - 1),
            },
          ]),
        ),
      },
    ];
    const timed =
      (requests: Request[]) =>
      (at: string, limit: { count: number } | { durationMs: number }): Plan => ({
        protocol: "http",
        address: at,
        concurrency: CONCURRENCY,
        requests,
        ...limit,
      });
    for (const scenario of scenarios)
      await generator.run(timed(scenario.requests)(address, { count: size.warmUps }));

    for (const scenario of scenarios) {
      const first = scenario.requests[0]!;
      const answer = await (
        await fetch(`http://${address}/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: first.body,
        })
      ).text();
      const measured = await againstBareRoute(
        { cpu, generator },
        address,
        "/",
        answer,
        timed(scenario.requests),
        size,
      );
      summary.report({
        name: scenario.name,
        detail: `${scenario.detail}; concurrency ${CONCURRENCY}; rounds of ${size.measureMs / 1000} s after a warm-up of ${size.warmUps.toLocaleString("en-US")} requests; floor: a bare Fastify route answering a real answer (${Buffer.byteLength(answer).toLocaleString("en-US")} bytes); ${roundsText(measured)}`,
        unit: "request",
        round: measured.round,
        micros: measured.micros,
        floor: { name: "bare route", micros: measured.floor },
        maxRatio: 2.5,
        targets: [],
      });
    }
  } finally {
    generator.close();
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
