/**
 * The load generator's process (started by bench/load.ts): carries out one plan at a time, each
 * request in flight on its own keep-alive connection (HTTP) or stream (gRPC), and reports counts,
 * latencies and its own CPU.
 */
import { connect, type ClientHttp2Session } from "node:http2";
import { Connection } from "./connection.js";
import type { LoadResult, Plan, Request } from "./load.js";

interface Channel {
  /** Sends one request (as `path`, its HTTP head `head`) and resolves with its status: "200", "grpc 0". */
  send(request: Request, path: string, head: string): Promise<string>;
  /** The last answer's body, when the plan follows cursors. */
  body(): Buffer;
  close(): void;
}

function httpChannels(plan: Plan): Channel[] {
  const port = Number(plan.address.split(":")[1]);
  return Array.from({ length: plan.concurrency }, () => {
    const connection = new Connection(port, plan.followCursor === true);
    return {
      send: async (request, _path, head) => String(await connection.send(head, request.body)),
      body: () => connection.lastBody,
      close: () => connection.close(),
    };
  });
}

/** One unary gRPC call: the message framed (uncompressed, its length); its grpc-status. */
function grpcCall(session: ClientHttp2Session, path: string, message: Uint8Array): Promise<string> {
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
    stream.on("close", () => resolve(`grpc ${String(status)}`));
    stream.end(frame);
  });
}

function grpcChannels(plan: Plan): Channel[] {
  const session = connect(`http://${plan.address}`);
  return Array.from({ length: plan.concurrency }, (_, i) => ({
    send: (request, path) => grpcCall(session, path, request.body ?? new Uint8Array()),
    body: () => Buffer.alloc(0),
    close: () => (i === 0 ? session.close() : undefined),
  }));
}

function httpHead(plan: Plan, request: Request, path: string): string {
  const body = request.body === undefined ? "" : `Content-Length: ${request.body.length}\r\n`;
  const type = request.contentType === undefined ? "" : `Content-Type: ${request.contentType}\r\n`;
  return `${request.method} ${path} HTTP/1.1\r\nHost: ${plan.address}\r\n${type}${body}\r\n`;
}

interface Prepared {
  plan: Plan;
  /** The requests' HTTP heads; those of followed pages are built as their cursors come. */
  heads: string[];
  channels: Channel[];
}

function prepare(plan: Plan): Prepared {
  return {
    plan,
    heads: plan.requests.map((request) => httpHead(plan, request, request.path)),
    channels: plan.protocol === "grpc" ? grpcChannels(plan) : httpChannels(plan),
  };
}

async function carryOut({ plan, heads, channels }: Prepared): Promise<LoadResult> {
  const failures: Record<string, number> = {};
  const latencies: number[] = [];
  const count = plan.count ?? Number.POSITIVE_INFINITY;
  const stopAt = performance.now() + (plan.durationMs ?? Number.POSITIVE_INFINITY);
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    channels.map(async (channel, c) => {
      let own = c % plan.requests.length;
      let cursor: string | undefined;
      while (next < count && performance.now() < stopAt) {
        const i = plan.followCursor === true ? own : next % plan.requests.length;
        next++;
        const request = plan.requests[i]!;
        const path = cursor === undefined ? request.path : `${request.path}&cursor=${cursor}`;
        const head = cursor === undefined ? heads[i]! : httpHead(plan, request, path);
        const t0 = performance.now();
        const status = await channel.send(request, path, head);
        latencies.push(performance.now() - t0);
        if (status !== "200" && status !== "grpc 0") failures[status] = (failures[status] ?? 0) + 1;
        if (plan.followCursor === true) {
          cursor =
            status === "200"
              ? (JSON.parse(channel.body().toString()) as { next?: { cursor?: string } }).next?.cursor
              : undefined;
          if (cursor === undefined) own = (own + plan.concurrency) % plan.requests.length;
        }
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  for (const channel of channels) channel.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    done: latencies.length,
    failures,
    elapsedMs,
    cpuMicros: user + system,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

let prepared: Prepared | undefined;
process.on("message", (message: Plan | "go") => {
  if (message !== "go") {
    prepared = prepare(message);
    process.send!("ready");
    return;
  }
  void carryOut(prepared!).then((result) => process.send!(result));
});
