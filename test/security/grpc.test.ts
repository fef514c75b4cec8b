/**
 * Attacks on the hub's gRPC port, made over real sockets: a crowd of connections that send nothing,
 * connections left half-open or idle, a request that never finishes, an over-size request to a
 * method that takes small ones, a submit with wrong credentials and a huge body, and a client that
 * never reads its answers. The port must hold the same limits as the HTTP ports, from the same
 * options.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { type ClientHttp2Session, type ClientHttp2Stream, connect as connectHttp2 } from "node:http2";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { getInsecureHubRpcClient } from "@farcaster/hub-nodejs";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack as startCastnet } from "../../src/stack/stack.js";
import { createLogger } from "../../src/http/index.js";
import { MAX_UNREAD_ANSWER_BYTES } from "../../src/hub/api/grpc/callLimits.js";
import { FidRequest } from "../../src/protocol/generated/request_response.js";
import { testEngines } from "../support/databases.js";
import { FREE_PORTS } from "../support/ports.js";
import { castAdd, encode, newAccount, startStack, type Stack } from "../hub/support.js";

const HEADERS_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = 3_000;
const IDLE_TIMEOUT_MS = 3_000;
const MAX_CONNECTIONS = 50;

setFlagsFromString("--expose-gc");
/** A full collection, so that what memory holds is what is referenced. */
const collectGarbage = runInNewContext("gc") as () => void;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A gRPC message frame: not compressed, its length, its bytes (`declared` may claim more than sent). */
function frame(bytes: Uint8Array, declared = bytes.length): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(declared, 1);
  return Buffer.concat([head, bytes]);
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

interface Status {
  code: number;
  message: string;
  errcode: string | undefined;
  /** Milliseconds from the call's start. */
  ms: number;
}

/**
 * Opens a call by hand: headers, then `body` written without ending the stream unless told. The
 * status comes in the trailers, or in the headers of a trailers-only answer; undefined when the
 * stream closes without one or `waitMs` passes.
 */
function rawCall(
  session: ClientHttp2Session,
  method: string,
  options: { metadata?: Record<string, string>; body?: Buffer; end?: boolean; waitMs?: number } = {},
): { stream: ClientHttp2Stream; status: Promise<Status | undefined> } {
  const started = Date.now();
  const stream = session.request(
    {
      ":method": "POST",
      ":path": `/HubService/${method}`,
      "content-type": "application/grpc",
      te: "trailers",
      ...options.metadata,
    },
    { endStream: false },
  );
  stream.on("error", () => undefined);
  if (options.body !== undefined) stream.write(options.body);
  if (options.end === true) stream.end();
  const status = new Promise<Status | undefined>((resolve) => {
    const settle = (headers: Record<string, unknown>) => {
      if (headers["grpc-status"] === undefined) return;
      resolve({
        code: Number(headers["grpc-status"]),
        message: decodeURIComponent(String(headers["grpc-message"] ?? "")),
        errcode: headers.errcode as string | undefined,
        ms: Date.now() - started,
      });
    };
    stream.on("response", settle);
    stream.on("trailers", settle);
    stream.on("data", () => undefined);
    stream.on("close", () => resolve(undefined));
    setTimeout(() => resolve(undefined), options.waitMs ?? 8_000);
  });
  return { stream, status };
}

function http2Session(address: string, settings: { initialWindowSize?: number } = {}) {
  const session = connectHttp2(`http://${address}`, { settings });
  session.on("error", () => undefined);
  return session;
}

/** Milliseconds until the socket or session closes, or undefined once `boundMs` has passed. */
function closesWithin(target: Socket | ClientHttp2Session, boundMs: number): Promise<number | undefined> {
  const started = Date.now();
  return new Promise((resolve) => {
    if (target.destroyed) return resolve(0);
    target.once("close", () => resolve(Date.now() - started));
    setTimeout(() => resolve(undefined), boundMs);
  });
}

function opened(address: string): Promise<Socket> {
  const [host, port] = address.split(":");
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), host, () => resolve(socket));
    socket.on("error", reject);
    // Read what the server sends, so that its close is seen.
    socket.resume();
  });
}

async function health(url: string): Promise<number> {
  return (await fetch(`${url}/_health`)).status;
}

describe("the hub's gRPC port holds the HTTP limits", () => {
  let stack: RunningStack;
  let dataDir: string;
  let address: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "castnet-security-grpc-"));
    const seconds = (ms: number) => String(ms / 1000);
    const config = parseStartOptions(
      [
        ...["--data-dir", dataDir, "--block-time", "0", ...FREE_PORTS],
        ...["--rpc-auth", "writer:s3cret"],
        ...[
          "--headers-timeout",
          seconds(HEADERS_TIMEOUT_MS),
          "--request-timeout",
          seconds(REQUEST_TIMEOUT_MS),
        ],
        ...["--idle-timeout", seconds(IDLE_TIMEOUT_MS), "--max-connections", String(MAX_CONNECTIONS)],
      ],
      {},
    );
    stack = await startCastnet(config, createLogger("silent"));
    address = stack.hubGrpc!;
  });

  after(async () => {
    await stack?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses connections beyond --max-connections while every HTTP part keeps answering", async () => {
    const held: Socket[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS; i++) held.push(await opened(address));
      const beyond = await opened(address);
      const closedAfter = await closesWithin(beyond, 1_000);
      assert.notEqual(closedAfter, undefined, "the connection beyond the cap was kept open");
      assert.ok(
        held.every((socket) => !socket.destroyed),
        "a connection within the cap was closed",
      );
      for (const url of Object.values(stack.urls)) assert.equal(await health(url), 200, url);
    } finally {
      for (const socket of held) socket.destroy();
    }
    await sleep(100);
    const client = getInsecureHubRpcClient(address);
    try {
      assert.ok(
        (await client.getInfo({ dbStats: false })).isOk(),
        "a client is served once the crowd is gone",
      );
    } finally {
      client.close();
    }
  });

  it("closes a connection that sends nothing, or half the HTTP/2 preface, within --headers-timeout", async () => {
    const silent = await opened(address);
    const half = await opened(address);
    half.write("PRI * HTTP/2.0\r\n");
    const [silentMs, halfMs] = await Promise.all([
      closesWithin(silent, HEADERS_TIMEOUT_MS + 4_000),
      closesWithin(half, HEADERS_TIMEOUT_MS + 4_000),
    ]);
    silent.destroy();
    half.destroy();
    console.log(`closed before a first call: silent after ${silentMs} ms, half a preface after ${halfMs} ms`);
    for (const [what, ms] of [
      ["silent", silentMs],
      ["half a preface", halfMs],
    ] as const) {
      assert.notEqual(ms, undefined, `${what}: still open`);
      assert.ok(
        ms! >= HEADERS_TIMEOUT_MS - 200 && ms! < HEADERS_TIMEOUT_MS + 1_500,
        `${what}: closed after ${ms} ms`,
      );
    }
  });

  it("closes an HTTP/2 connection left idle after its call within --idle-timeout", async () => {
    const session = http2Session(address);
    try {
      const call = rawCall(session, "GetInfo", { body: frame(new Uint8Array(0)), end: true });
      const status = await call.status;
      assert.equal(status?.code, 0);
      // grpc-js's idle timer runs from the connection's last activity and rearms when it fires
      // early, so a loaded machine closes it between one and two idle timeouts after the call.
      const closedAfter = await closesWithin(session, 2 * IDLE_TIMEOUT_MS + 4_000);
      console.log(`idle connection closed ${closedAfter} ms after its call`);
      assert.notEqual(closedAfter, undefined, "the idle connection was kept open");
      assert.ok(
        closedAfter! >= IDLE_TIMEOUT_MS - 200 && closedAfter! < 2 * IDLE_TIMEOUT_MS + 1_500,
        `closed after ${closedAfter} ms`,
      );
    } finally {
      session.destroy();
    }
  });

  it("ends a request that never finishes at --request-timeout, and its connection", async () => {
    const session = http2Session(address);
    const call = rawCall(session, "SubmitBulkMessages", {
      metadata: { authorization: basic("writer", "s3cret") },
      body: frame(Buffer.alloc(1024), 1024 * 1024),
    });
    const trickle = setInterval(() => {
      if (!call.stream.destroyed) call.stream.write(Buffer.alloc(1024));
    }, 200);
    try {
      const status = await call.status;
      assert.equal(status?.code, 4, `status ${JSON.stringify(status)}`);
      console.log(`unfinished request ended after ${status.ms} ms`);
      assert.ok(
        status.ms >= REQUEST_TIMEOUT_MS - 200 && status.ms < REQUEST_TIMEOUT_MS + 1_500,
        `ended after ${status.ms} ms`,
      );
      assert.notEqual(await closesWithin(session, 2_000), undefined, "the connection was kept open");
    } finally {
      clearInterval(trickle);
      session.destroy();
    }
  });

  it("refuses an over-size request to a method that takes small ones before it has arrived", async () => {
    const session = http2Session(address);
    try {
      const submit = rawCall(session, "SubmitMessage", {
        metadata: { authorization: basic("writer", "s3cret") },
        body: frame(Buffer.alloc(1024), 1024 * 1024),
        waitMs: 2_000,
      });
      const read = rawCall(session, "GetCastsByFid", {
        body: frame(Buffer.alloc(1024), 64 * 1024),
        waitMs: 2_000,
      });
      for (const status of [await submit.status, await read.status]) {
        assert.equal(status?.code, 8, `status ${JSON.stringify(status)}`);
        assert.ok(status.ms < 1_000, `refused after ${status.ms} ms`);
      }
      // A request of the right size on the same connection is served.
      const fine = rawCall(session, "GetCastsByFid", {
        body: frame(FidRequest.encode({ fid: 1 }).finish()),
        end: true,
      });
      assert.equal((await fine.status)?.code, 0);
    } finally {
      session.destroy();
    }
  });

  it("refuses wrong or missing credentials on the metadata, before the body is read", async () => {
    const session = http2Session(address);
    try {
      const wrong = rawCall(session, "SubmitBulkMessages", {
        metadata: { authorization: basic("writer", "wrong") },
        body: frame(Buffer.alloc(1024), 4 * 1024 * 1024),
        waitMs: 2_000,
      });
      const none = rawCall(session, "SubmitMessage", {
        body: frame(Buffer.alloc(1024), 60 * 1024),
        waitMs: 2_000,
      });
      for (const status of [await wrong.status, await none.status]) {
        assert.equal(status?.code, 16, `status ${JSON.stringify(status)}`);
        assert.equal(status.errcode, "unauthenticated");
        assert.ok(status.ms < 1_000, `refused after ${status.ms} ms`);
      }
    } finally {
      session.destroy();
    }
  });
});

for (const engine of (await testEngines()).slice(0, 1)) {
  describe(`a gRPC client that never reads its answers on ${engine.engine}`, { skip: engine.skip }, () => {
    const CASTS = 600;
    /** Fewer than the streams a connection may have open, so that every call reaches the hub. */
    const CALLS = 90;
    /**
     * What the hub may hold for one such connection (16 MiB of answers and one more), with room for
     * what else the process holds at that moment on a loaded machine (it held 91 MB before the bound).
     */
    const BOUND = 48 * 1024 * 1024;
    let stack: Stack;
    let address: string;
    let fid: number;
    let page: number;

    before(async () => {
      stack = await startStack(engine, { http: { idleTimeoutMs: IDLE_TIMEOUT_MS } });
      address = `127.0.0.1:${await stack.hub.grpc.listen("127.0.0.1", 0)}`;
      const alice = await newAccount(stack);
      fid = alice.fid;
      const embeds = [
        { url: `https://example.com/${"e".repeat(200)}` },
        { url: `https://example.org/${"o".repeat(200)}` },
      ];
      const casts = [];
      for (let i = 0; i < CASTS; i++)
        casts.push(encode(await castAdd(alice, `${i} ${"x".repeat(300)}`, { embeds })));
      const outcomes = await stack.hub.service.submitBulkMessages(casts);
      assert.ok(outcomes.every((outcome) => outcome.ok));
      page = casts.reduce((size, cast) => size + cast.length, 0);
    });

    after(() => stack?.close());

    it("cannot make the hub hold more than the stated bound, and is closed once it stalls", async () => {
      assert.ok(page > 200_000, `a page is ${page} bytes`);
      const request = frame(FidRequest.encode({ fid, pageSize: 1000 }).finish());
      // The same calls from a client that reads, ten at a time: what serving them holds anyway (reader memory).
      const reader = http2Session(address);
      for (let batch = 0; batch < CALLS / 10; batch++) {
        const served = await Promise.all(
          Array.from(
            { length: 10 },
            () => rawCall(reader, "GetCastsByFid", { body: request, end: true }).status,
          ),
        );
        assert.ok(
          served.every((status) => status?.code === 0),
          JSON.stringify(served),
        );
      }
      reader.destroy();
      const session = http2Session(address, { initialWindowSize: 0 });
      try {
        collectGarbage();
        const before = process.memoryUsage();
        const calls = Array.from({ length: CALLS }, () =>
          rawCall(session, "GetCastsByFid", { body: request, end: true }),
        );
        // Every call is answered (its answer queued) or refused before the hub is left alone.
        const answered = await Promise.all(
          calls.map(
            ({ stream, status }) =>
              new Promise<number | "queued">((resolve) => {
                stream.once("response", (headers) =>
                  resolve(headers["grpc-status"] === undefined ? "queued" : Number(headers["grpc-status"])),
                );
                void status.then(() => resolve(-1));
              }),
          ),
        );
        collectGarbage();
        const held = process.memoryUsage();
        const grown = held.arrayBuffers - before.arrayBuffers;
        const queued = answered.filter((outcome) => outcome === "queued").length;
        const refused = answered.filter((outcome) => outcome === 8).length;
        console.log(
          `slow reader: ${queued} answers queued, ${refused} refused; arrayBuffers +${(grown / 1e6).toFixed(1)} MB, rss +${((held.rss - before.rss) / 1e6).toFixed(1)} MB`,
        );
        assert.ok(grown < BOUND, `the hub holds ${grown} more bytes of buffers`);
        assert.equal(queued + refused, CALLS, JSON.stringify(answered));
        // The exact bound: answers queued for the connection beyond 16 MiB are refused, one let through.
        assert.ok(
          (queued - 1) * page <= MAX_UNREAD_ANSWER_BYTES,
          `${queued} answers of ${page} bytes queued`,
        );
        // No answer leaves while the window is shut: the connection is closed within the idle timeout.
        const closedAfter = await closesWithin(session, 2 * IDLE_TIMEOUT_MS + 4_000);
        console.log(`stalled connection closed ${closedAfter} ms after its answers were queued`);
        assert.notEqual(closedAfter, undefined, "the stalled connection was kept open");
      } finally {
        session.destroy();
      }
    });
  });
}
