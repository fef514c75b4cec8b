/**
 * The hub's gRPC API against its HTTP API (SQLite in a temp dir; the hub runs in this process, the
 * load comes from one child process): the hub process's CPU per request, all threads, of
 *
 * (a) SubmitMessage against POST /v1/submitMessage: batches of casts of one shape from the same
 *     fids at the same concurrency (each batch new casts, as a hub takes a cast once);
 * (b) GetCastsByFid against GET /v1/castsByFid: the same fids in the same order, 100 casts stored
 *     each, page size 100.
 *
 * Target: gRPC costs no more than HTTP (ratio ≤ 1.0). Rounds alternate the order of the two APIs
 * (HTTP gRPC, gRPC HTTP, …) after a warm-up of each, so that other load on the machine falls on
 * both; the figures are the medians of the rounds.
 */
import { fork, type ChildProcess } from "node:child_process";
import { connect, type ClientHttp2Session } from "node:http2";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createDevchain } from "../src/devchain/index.js";
import { createLogger, listen } from "../src/http/index.js";
import { createHub } from "../src/hub/index.js";
import { ed25519PublicKey, generateEd25519KeyPair } from "../src/protocol/ed25519.js";
import { FidRequest } from "../src/protocol/generated/request_response.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { currentProtocolTime } from "../src/protocol/time.js";
import { castData, Connection, noNames, signer } from "./hub.js";

const FIDS = 300;
/** Casts per fid in one submit batch; a fid ends with 100 after the warm-up and the rounds. */
const CASTS_PER_FID = 5;
const ROUNDS = 9;
const CONCURRENCY = 32;
const READS = 2_000;
const PAGE_SIZE = 100;

type Api = "http" | "grpc";

type Order =
  | { kind: "prepare"; http: string; grpc: string; keys: string[]; fids: number[]; batches: number }
  | { kind: "submit"; api: Api; batch: number }
  | { kind: "read"; api: Api };

interface Outcome {
  done: number;
  failed: number;
}

/** The hub's CPU (this process, all threads) per request of one order the child carries out, in µs. */
async function cpuPerRequest(child: ChildProcess, order: Order): Promise<number> {
  const cpu = process.cpuUsage();
  const outcome = await ask(child, order);
  const { user, system } = process.cpuUsage(cpu);
  if (outcome.failed > 0) throw new Error(`${outcome.failed} of ${outcome.done} ${order.kind}s failed`);
  return (user + system) / outcome.done;
}

function ask(child: ChildProcess, order: Order): Promise<Outcome> {
  return new Promise((resolve) => {
    child.once("message", (outcome) => resolve(outcome as Outcome));
    child.send(order);
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}

/** Warms both APIs up, then measures ROUNDS rounds in alternating order; prints medians and ratio. */
async function compare(what: string, measure: (api: Api, round: number) => Promise<number>): Promise<void> {
  await measure("http", 0);
  await measure("grpc", 0);
  const figures: Record<Api, number[]> = { http: [], grpc: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    const order: Api[] = round % 2 === 1 ? ["http", "grpc"] : ["grpc", "http"];
    for (const api of order) figures[api].push(await measure(api, round));
  }
  const http = median(figures.http);
  const grpc = median(figures.grpc);
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(", ");
  console.log(
    `${what}: hub CPU per request, median of ${ROUNDS}: gRPC ${grpc.toFixed(0)} µs, HTTP ${http.toFixed(0)} µs, ` +
      `ratio ${(grpc / http).toFixed(2)} (target ≤ 1.00; rounds gRPC ${list(figures.grpc)}, HTTP ${list(figures.http)})`,
  );
}

export async function benchGrpc(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-grpc-"));
  const logger = createLogger("silent");
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger,
    blockTimeSeconds: 3_600,
  });
  const child = fork(new URL(import.meta.url).pathname, [], {
    env: { ...process.env, CASTNET_GRPC_LOAD: "1" },
  });
  try {
    const keys = Array.from({ length: FIDS }, () => generateEd25519KeyPair().privateKey);
    const fids: number[] = [];
    for (const key of keys) {
      const { fid } = await devchain.chain.submitRegister({
        custody: privateKeyToAccount(generatePrivateKey()).address,
      });
      await devchain.chain.submitStorageRent(fid, 10);
      await devchain.chain.submitKeyAdd({
        fid,
        key: `0x${Buffer.from(ed25519PublicKey(key)).toString("hex")}`,
      });
      fids.push(fid);
    }
    await devchain.chain.mine();
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
      const http = await listen(hub.app, "hub", "127.0.0.1", 0);
      const grpc = `127.0.0.1:${await hub.grpc.listen("127.0.0.1", 0)}`;
      await ask(child, {
        kind: "prepare",
        http,
        grpc,
        keys: keys.map((k) => Buffer.from(k).toString("hex")),
        fids,
        batches: 2 * (ROUNDS + 1),
      });
      let batch = 0;
      await compare(
        `SubmitMessage vs POST /v1/submitMessage (${(FIDS * CASTS_PER_FID).toLocaleString()} casts a round, concurrency ${CONCURRENCY})`,
        (api) => cpuPerRequest(child, { kind: "submit", api, batch: batch++ }),
      );
      await compare(
        `GetCastsByFid vs GET /v1/castsByFid (${READS.toLocaleString()} pages of ${PAGE_SIZE} a round, concurrency ${CONCURRENCY})`,
        (api) => cpuPerRequest(child, { kind: "read", api }),
      );
    } finally {
      await hub.grpc.close();
      await hub.close();
    }
  } finally {
    child.kill();
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// The load generator, in the child process: CONCURRENCY requests in flight, on as many HTTP/1.1
// connections or multiplexed on one HTTP/2 connection, as each API's clients do. Both speak their
// protocol by hand (a raw socket; node:http2 with gRPC's framing): the client libraries cost more
// CPU per request than the server they measure, on the same cores.

interface Load {
  httpPort: number;
  host: string;
  grpc: ClientHttp2Session;
  fids: number[];
  /** Signed casts by batch. */
  batches: Uint8Array[][];
}

/** One unary gRPC call: the message framed (uncompressed, its length), succeeded if grpc-status is 0. */
function grpcCall(session: ClientHttp2Session, path: string, message: Uint8Array): Promise<boolean> {
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return new Promise((resolve) => {
    const stream = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
    });
    let status: unknown;
    stream.on("trailers", (trailers) => (status = trailers["grpc-status"]));
    stream.on("data", () => undefined);
    stream.on("close", () => resolve(status === "0"));
    stream.end(frame);
  });
}

/** Sends requests 0…count-1, CONCURRENCY at a time, through `send`; counts the failures. */
async function drive(
  count: number,
  api: Api,
  load: Load,
  send: (i: number, connection: Connection | undefined) => Promise<boolean>,
): Promise<Outcome> {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const connection = api === "http" ? new Connection(load.httpPort) : undefined;
      try {
        while (next < count) if (!(await send(next++, connection))) failed++;
      } finally {
        connection?.close();
      }
    }),
  );
  return { done: count, failed };
}

function prepare(order: Extract<Order, { kind: "prepare" }>): Load {
  const url = new URL(order.http);
  const signers = order.keys.map((key) => signer(new Uint8Array(Buffer.from(key, "hex"))));
  const total = order.batches * CASTS_PER_FID;
  const start = currentProtocolTime() - total;
  const batches = Array.from({ length: order.batches }, (_, b) => {
    const casts: Uint8Array[] = [];
    for (let n = 0; n < CASTS_PER_FID; n++) {
      const index = b * CASTS_PER_FID + n;
      order.fids.forEach((fid, i) =>
        casts.push(
          signers[i]!(castData(fid, start + index, `benchmark cast ${String(index).padStart(4, "0")}`)),
        ),
      );
    }
    return casts;
  });
  return {
    httpPort: Number(url.port),
    host: url.host,
    grpc: connect(`http://${order.grpc}`),
    fids: order.fids,
    batches,
  };
}

async function carry(load: Load, order: Exclude<Order, { kind: "prepare" }>): Promise<Outcome> {
  const host = `Host: ${load.host}\r\n`;
  if (order.kind === "submit") {
    const casts = load.batches[order.batch]!;
    return drive(casts.length, order.api, load, async (i, connection) => {
      const cast = casts[i]!;
      if (connection === undefined) return grpcCall(load.grpc, "/HubService/SubmitMessage", cast);
      const head =
        `POST /v1/submitMessage HTTP/1.1\r\n${host}Content-Type: application/octet-stream\r\n` +
        `Content-Length: ${cast.length}\r\n\r\n`;
      return (await connection.send(head, cast)) === 200;
    });
  }
  const requests = load.fids.map((fid) =>
    Buffer.from(FidRequest.encode({ fid, pageSize: PAGE_SIZE }).finish()),
  );
  return drive(READS, order.api, load, async (i, connection) => {
    const at = i % load.fids.length;
    if (connection === undefined) return grpcCall(load.grpc, "/HubService/GetCastsByFid", requests[at]!);
    const path = `/v1/castsByFid?fid=${load.fids[at]}&pageSize=${PAGE_SIZE}`;
    return (await connection.send(`GET ${path} HTTP/1.1\r\n${host}\r\n`)) === 200;
  });
}

if (process.env.CASTNET_GRPC_LOAD === "1" && process.send !== undefined) {
  let load: Load | undefined;
  process.on("message", (order: Order) => {
    if (order.kind === "prepare") {
      load = prepare(order);
      process.send!({ done: 0, failed: 0 } satisfies Outcome);
      return;
    }
    void carry(load!, order).then((outcome) => process.send!(outcome));
  });
}
