/**
 * The hub's gRPC API against its HTTP API (SQLite in a temp dir; the hub runs in this process, the
 * load comes from the generator's child process): the hub process's CPU per request, all threads, of
 *
 * (a) SubmitMessage against POST /v1/submitMessage: batches of casts of one shape from the same
 *     fids at the same concurrency (each batch new casts, as a hub takes a cast once);
 * (b) GetCastsByFid against GET /v1/castsByFid: the same fids in the same order, 100 casts stored
 *     each (fewer in --quick), page size 100.
 *
 * Target: gRPC costs no more than HTTP (ratio ≤ 1.0). Rounds alternate the order of the two APIs
 * (HTTP gRPC, gRPC HTTP, …) after a warm-up of each, so that other load on the machine falls on
 * both; the figures are the medians of the rounds. HTTP requests go one per keep-alive connection
 * in flight, gRPC calls multiplexed on one HTTP/2 session, as each API's clients do.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDevchain } from "../src/devchain/index.js";
import { createLogger, listen } from "../src/http/index.js";
import { createHub } from "../src/hub/index.js";
import { generateEd25519KeyPair } from "../src/protocol/ed25519.js";
import { FidRequest } from "../src/protocol/generated/request_response.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { currentProtocolTime } from "../src/protocol/time.js";
import { castData, noNames, registerFids, signer } from "./casts.js";
import type { BenchContext } from "./context.js";
import { LoadGenerator, type Request } from "./load.js";
import { measureRound, median, perOperation, type Round } from "./round.js";

const FULL = { fids: 300, rounds: 9, reads: 2_000 };
const QUICK = { fids: 60, rounds: 3, reads: 300 };
/** Casts per fid in one submit batch; a fid ends with 5 × 2 × (rounds + 1) after all of them. */
const CASTS_PER_FID = 5;
const CONCURRENCY = 32;
const PAGE_SIZE = 100;

type Api = "http" | "grpc";

/**
 * Warms both APIs up, then measures `rounds` rounds in alternating order; reports the gRPC median
 * against the HTTP median.
 */
async function compare(
  { summary }: BenchContext,
  name: string,
  detail: string,
  rounds: number,
  measure: (api: Api) => Promise<Round>,
): Promise<void> {
  await measure("http");
  await measure("grpc");
  const figures: Record<Api, number[]> = { http: [], grpc: [] };
  let last: Round | undefined;
  for (let round = 1; round <= rounds; round++) {
    const order: Api[] = round % 2 === 1 ? ["http", "grpc"] : ["grpc", "http"];
    for (const api of order) {
      const measured = await measure(api);
      figures[api].push(perOperation(measured));
      if (api === "grpc") last = measured;
    }
  }
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(", ");
  summary.report({
    name,
    detail: `${detail}; medians of ${rounds} rounds (gRPC ${list(figures.grpc)}; HTTP ${list(figures.http)} µs), split of the last gRPC round`,
    unit: "request",
    round: last,
    micros: median(figures.grpc),
    floor: { name: "the HTTP route", micros: median(figures.http) },
    maxRatio: 1,
  });
}

export async function benchGrpc(context: BenchContext): Promise<void> {
  const size = context.quick ? QUICK : FULL;
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-grpc-"));
  const logger = createLogger("silent");
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger,
    blockTimeSeconds: 3_600,
  });
  const generator = new LoadGenerator();
  try {
    const keys = Array.from({ length: size.fids }, () => generateEd25519KeyPair().privateKey);
    const fids = await registerFids(devchain.chain, keys, 10);
    const hub = await createHub({
      database: { engine: "sqlite", path: join(dir, "hub.sqlite") },
      logger,
      naming: NEUTRAL,
      network: "devnet",
      chain: devchain.chain,
      registry: noNames,
    });
    try {
      await hub.service.syncChain();
      const http = new URL(await listen(hub.app, "hub", "127.0.0.1", 0)).host;
      const grpc = `127.0.0.1:${await hub.grpc.listen("127.0.0.1", 0)}`;
      const address: Record<Api, string> = { http, grpc };
      const round = (api: Api, requests: Request[]) =>
        measureRound(context.cpu, generator, {
          protocol: api,
          address: address[api],
          concurrency: CONCURRENCY,
          requests,
          count: requests.length,
        });

      const signers = keys.map((key) => signer(key));
      const batches = 2 * (size.rounds + 1);
      const start = currentProtocolTime() - batches * CASTS_PER_FID;
      let batch = 0;
      const casts = (api: Api): Request[] => {
        const requests: Request[] = [];
        for (let n = 0; n < CASTS_PER_FID; n++) {
          const index = batch * CASTS_PER_FID + n;
          fids.forEach((fid, i) => {
            const body = signers[i]!(
              castData(fid, start + index, `benchmark cast ${String(index).padStart(4, "0")}`),
            );
            requests.push(
              api === "grpc"
                ? { method: "POST", path: "/HubService/SubmitMessage", body }
                : {
                    method: "POST",
                    path: "/v1/submitMessage",
                    contentType: "application/octet-stream",
                    body,
                  },
            );
          });
        }
        batch++;
        return requests;
      };
      await compare(
        context,
        "gRPC SubmitMessage",
        `against POST /v1/submitMessage, ${(size.fids * CASTS_PER_FID).toLocaleString("en-US")} casts a round, concurrency ${CONCURRENCY}`,
        size.rounds,
        (api) => round(api, casts(api)),
      );

      const reads: Record<Api, Request[]> = {
        http: fids.map((fid) => ({ method: "GET", path: `/v1/castsByFid?fid=${fid}&pageSize=${PAGE_SIZE}` })),
        grpc: fids.map((fid) => ({
          method: "POST",
          path: "/HubService/GetCastsByFid",
          body: FidRequest.encode({ fid, pageSize: PAGE_SIZE }).finish(),
        })),
      };
      await compare(
        context,
        "gRPC GetCastsByFid",
        `against GET /v1/castsByFid, ${size.reads.toLocaleString("en-US")} pages of up to ${PAGE_SIZE} a round, concurrency ${CONCURRENCY}`,
        size.rounds,
        (api) =>
          round(
            api,
            Array.from({ length: size.reads }, (_, i) => reads[api][i % fids.length]!),
          ),
      );
    } finally {
      await hub.grpc.close();
      await hub.close();
    }
  } finally {
    generator.close();
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
