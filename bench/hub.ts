/**
 * Hub benchmarks (SQLite in a temp dir; the hub runs in this process, the load comes from a child
 * process so that this process's memory is the hub's):
 *
 * (a) POST /v1/submitMessage: 50,000 pre-signed casts from 500 fids over HTTP keep-alive at
 *     concurrency 32, against the raw Ed25519 verify rate of one core measured in the same run
 *     (target: ≥ 0.5 of it);
 * (b) GET /v1/castsByFid?pageSize=100 against 1,000,000 stored messages: requests/s and p99
 *     latency (targets: ≥ 3,000/s, p99 ≤ 20 ms);
 * (c) resident memory of the hub process holding 1,000,000 messages.
 */
import { fork } from "node:child_process";
import { createPrivateKey, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Insertable } from "kysely";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createDevchain } from "../src/devchain/index.js";
import { createHub } from "../src/hub/index.js";
import { StoreType } from "../src/hub/keys.js";
import { hubMigrations } from "../src/hub/migrations/index.js";
import type { HubTables } from "../src/hub/tables.js";
import { createLogger, listen } from "../src/http/index.js";
import {
  ed25519PublicKey,
  generateEd25519KeyPair,
  signEd25519,
  verifyEd25519,
} from "../src/protocol/ed25519.js";
import { MessageData, MessageType, SocialNetwork } from "../src/protocol/generated/message.js";
import { blake3_20 } from "../src/protocol/hash.js";
import { writeMessageJson } from "../src/protocol/json/index.js";
import { decodeMessage, encodeMessage, makeTsHash } from "../src/protocol/message.js";
import { NEUTRAL } from "../src/protocol/naming.js";
import { currentProtocolTime } from "../src/protocol/time.js";
import type { TransferFeed } from "../src/registry/feed.js";
import { migrate, openDatabase } from "../src/storage/index.js";

const FIDS = 500;
const SUBMITS = 50_000;
const CONCURRENCY = 32;
const STORED = 1_000_000;
const SEED_FIDS = 10_000;
const SEED_BATCH = 2_000;
const VERIFY_MS = 2_000;
const WARMUP_MS = 1_000;
const READ_MS = 5_000;

/** A feed with no transfers: names play no part here. */
export const noNames: TransferFeed = {
  signer: async () => privateKeyToAccount(generatePrivateKey()).address,
  transfersAfter: async () => [],
  transfersByName: async () => [],
  onTransfer: () => () => undefined,
};

type Job =
  | { kind: "submit"; base: string; keys: string[]; fids: number[]; perFid: number }
  | { kind: "read"; base: string; fids: number[]; durationMs: number };

interface LoadResult {
  done: number;
  failures: Record<string, number>;
  elapsedMs: number;
  /** CPU the load generator spent sending and reading, in µs (user + system). */
  cpuMicros: number;
  /** Latencies in ms (read job only), sorted. */
  p50?: number;
  p99?: number;
}

export function castData(fid: number, timestamp: number, text: string): MessageData {
  return {
    type: MessageType.CAST_ADD,
    fid,
    timestamp,
    network: SocialNetwork.DEVNET,
    castAddBody: { embedsDeprecated: [], mentions: [], text, mentionsPositions: [], embeds: [], type: 0 },
  };
}

/**
 * Signs as a client library does (BLAKE3-20 of the data bytes, Ed25519 over the hash), with the
 * key parsed once: parsing a raw Ed25519 key costs far more than the signature.
 */
export function signer(privateKey: Uint8Array): (data: MessageData) => Uint8Array {
  const key = createPrivateKey({
    key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), privateKey]),
    format: "der",
    type: "pkcs8",
  });
  const publicKey = ed25519PublicKey(privateKey);
  return (data) => {
    const dataBytes = MessageData.encode(data).finish();
    const hash = blake3_20(dataBytes);
    const signature = new Uint8Array(sign(null, hash, key));
    return encodeMessage({
      data,
      hash,
      hashScheme: 1,
      signature,
      signatureScheme: 1,
      signer: publicKey,
      dataBytes,
    });
  };
}

function verifyRate(): number {
  const { privateKey, publicKey } = generateEd25519KeyPair();
  const hash = new Uint8Array(20).fill(7);
  const signature = signEd25519(hash, privateKey);
  let count = 0;
  const started = performance.now();
  while (performance.now() - started < VERIFY_MS) {
    verifyEd25519(signature, hash, publicKey);
    count++;
  }
  return (count / (performance.now() - started)) * 1000;
}

/**
 * Messages written straight through the hub's tables in big transactions, as the merge would write
 * them (the read benchmark only reads): casts of SEED_FIDS fids, 100 each.
 */
async function seed(path: string, count: number): Promise<void> {
  const database = openDatabase<HubTables>({ engine: "sqlite", path });
  await migrate(database, "hub", hubMigrations);
  const signers = Array.from({ length: 64 }, () => signer(generateEd25519KeyPair().privateKey));
  const start = currentProtocolTime() - 1_000_000;
  const perFid = Math.ceil(count / SEED_FIDS);
  // Fid by fid, oldest first: the rows arrive in primary-key order, as a long-lived hub holds them.
  for (let from = 0; from < count; from += SEED_BATCH) {
    const rows: Insertable<HubTables["hub_messages"]>[] = [];
    for (let i = from; i < Math.min(count, from + SEED_BATCH); i++) {
      const fid = 1_000_000 + Math.floor(i / perFid);
      const timestamp = start + (i % perFid);
      const bytes = signers[i % 64]!(castData(fid, timestamp, `seeded cast ${i % perFid} of fid ${fid}`));
      const { message } = decodeMessage(bytes);
      rows.push({
        fid,
        store: StoreType.CASTS,
        ts_hash: makeTsHash(timestamp, message.hash),
        set_key: message.hash,
        type: MessageType.CAST_ADD,
        timestamp,
        hash: message.hash,
        signer: message.signer,
        kind: null,
        target: null,
        target_fid: null,
        message: bytes,
        json: writeMessageJson(message, NEUTRAL),
        json_profile: NEUTRAL.name,
      });
    }
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 100)
        await trx
          .insertInto("hub_messages")
          .values(rows.slice(i, i + 100))
          .execute();
    });
  }
  const fids = Math.ceil(count / perFid);
  for (let i = 0; i < fids; i += 1000) {
    await database.db
      .insertInto("hub_store_counts")
      .values(
        Array.from({ length: Math.min(1000, fids - i) }, (_, j) => ({
          fid: 1_000_000 + i + j,
          store: StoreType.CASTS,
          count: Math.min(perFid, count - (i + j) * perFid),
        })),
      )
      .execute();
  }
  await database.close();
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return user + system;
}

/**
 * Runs a load job and reports, besides its result, the CPU both sides spent per request: the
 * load generator shares this machine's cores with the hub, so the hub's figures depend on it.
 */
async function measured(job: Job): Promise<LoadResult & { hubCpuMicros: number; busyMicros: number }> {
  const idle = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const result = await load(job);
  return {
    ...result,
    hubCpuMicros: cpuSince(cpu),
    busyMicros: performance.eventLoopUtilization(idle).active * 1000,
  };
}

function cpuLine(result: Awaited<ReturnType<typeof measured>>, unit: string): string {
  const per = (micros: number) => Math.round(micros / result.done);
  return (
    `  per ${unit}: hub process ${per(result.hubCpuMicros)} µs CPU (all threads; server thread busy ` +
    `${per(result.busyMicros)} µs), load generator ${per(result.cpuMicros)} µs CPU`
  );
}

function describe(result: LoadResult): string {
  const entries = Object.entries(result.failures);
  return entries.length === 0
    ? ""
    : `; NOT 200: ${entries.map(([status, n]) => `${n} × ${status}`).join(", ")}`;
}

function load(job: Job): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url).pathname, [], {
      env: { ...process.env, CASTNET_HUB_LOAD: "1" },
    });
    child.once("message", (result) => {
      child.kill();
      resolve(result as LoadResult);
    });
    child.once("error", reject);
    child.send(job);
  });
}

export async function benchHub(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "castnet-bench-hub-"));
  const logger = createLogger("silent");
  const hubPath = join(dir, "hub.sqlite");
  const devchain = await createDevchain({
    database: { engine: "sqlite", path: join(dir, "chain.sqlite") },
    logger,
    blockTimeSeconds: 3_600,
  });
  try {
    const verify = verifyRate();
    console.log(`Ed25519 verify (node:crypto, one core): ${Math.round(verify).toLocaleString()}/s`);

    // (a) submits.
    const keys = Array.from({ length: FIDS }, () => generateEd25519KeyPair().privateKey);
    const fids: number[] = [];
    for (const key of keys) {
      const custody = privateKeyToAccount(generatePrivateKey()).address;
      const { fid } = await devchain.chain.submitRegister({ custody });
      await devchain.chain.submitStorageRent(fid, 100);
      await devchain.chain.submitKeyAdd({
        fid,
        key: `0x${Buffer.from(ed25519PublicKey(key)).toString("hex")}`,
      });
      fids.push(fid);
    }
    await devchain.chain.mine();
    let hub = await createHub({
      database: { engine: "sqlite", path: hubPath },
      logger,
      naming: NEUTRAL,
      network: "devnet",
      chain: devchain.chain,
      registry: noNames,
    });
    await hub.service.syncChain();
    let base = await listen(hub.app, "hub", "127.0.0.1", 0);
    const job = {
      kind: "submit",
      base,
      keys: keys.map((k) => Buffer.from(k).toString("hex")),
      fids,
      perFid: SUBMITS / FIDS,
    } as const;
    const submitted = await measured(job);
    const submitRate = (submitted.done / submitted.elapsedMs) * 1000;
    console.log(
      `POST /v1/submitMessage: ${Math.round(submitRate).toLocaleString()} messages/s ` +
        `(${(submitRate / verify).toFixed(2)} of the one-core verify rate; target ≥ 0.5) ` +
        `over ${submitted.done.toLocaleString()} casts from ${FIDS} fids at concurrency ${CONCURRENCY}${describe(submitted)}`,
    );
    // The load child signs its messages first; the hub is idle meanwhile, so time per message (not
    // utilisation) is the figure to read.
    console.log(cpuLine(submitted, "message"));
    await hub.close();

    // (b) and (c): reads against 1,000,000 stored messages.
    const seeding = performance.now();
    await seed(hubPath, STORED - SUBMITS);
    console.log(
      `seeded ${(STORED - SUBMITS).toLocaleString()} more messages in ${((performance.now() - seeding) / 1000).toFixed(0)} s`,
    );
    hub = await createHub({
      database: { engine: "sqlite", path: hubPath },
      logger,
      naming: NEUTRAL,
      network: "devnet",
      chain: devchain.chain,
      registry: noNames,
    });
    base = await listen(hub.app, "hub", "127.0.0.1", 0);
    const stored = (await hub.service.info(true)).dbStats!.numMessages;
    const readFids = [...fids, ...Array.from({ length: SEED_FIDS }, (_, i) => 1_000_000 + i)];
    await load({ kind: "read", base, fids: readFids, durationMs: WARMUP_MS });
    const read = await measured({ kind: "read", base, fids: readFids, durationMs: READ_MS });
    console.log(
      `GET /v1/castsByFid?pageSize=100 with ${stored.toLocaleString()} messages stored: ` +
        `${Math.round((read.done / read.elapsedMs) * 1000).toLocaleString()} requests/s (target ≥ 3,000), ` +
        `p50 ${read.p50!.toFixed(1)} ms, p99 ${read.p99!.toFixed(1)} ms (target ≤ 20 ms) at concurrency ${CONCURRENCY}${describe(read)}`,
    );
    console.log(cpuLine(read, "request"));
    const rss = process.memoryUsage().rss;
    console.log(
      `hub resident memory holding ${stored.toLocaleString()} messages: ${Math.round(rss / 2 ** 20)} MiB`,
    );
    await hub.close();
  } finally {
    await devchain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One keep-alive connection with one request in flight, speaking HTTP/1.1 over a raw socket:
 * Node's HTTP client costs more CPU per request than the server it measures, on the same cores.
 */
export class Connection {
  readonly #socket: Socket;
  /** Bytes of a response head not yet complete. */
  #head: Buffer = Buffer.alloc(0);
  /** Body bytes still to come of the response being read, or -1 while reading its head. */
  #remaining = -1;
  #status = 0;
  #waiting: ((status: number) => void) | undefined;

  constructor(port: number) {
    // Reads land in one reused buffer: a fresh buffer per read cost the generator, on the cores it
    // shares with the hub, more CPU than the kernel's copy.
    const buffer = Buffer.allocUnsafe(256 * 1024);
    this.#socket = connect({
      host: "127.0.0.1",
      port,
      noDelay: true,
      onread: {
        buffer,
        callback: (length) => {
          this.#read(buffer.subarray(0, length));
          return true;
        },
      },
    });
  }

  send(head: string, body?: Uint8Array): Promise<number> {
    return new Promise((resolve) => {
      this.#waiting = resolve;
      this.#socket.write(body === undefined ? head : Buffer.concat([Buffer.from(head), body]));
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  // Counts body bytes without keeping them: a page of messages is about 100 KB.
  #read(chunk: Buffer): void {
    while (chunk.length > 0) {
      if (this.#remaining < 0) {
        const head = this.#head.length === 0 ? chunk : Buffer.concat([this.#head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) {
          // Copied: the read buffer is reused.
          this.#head = Buffer.from(head);
          return;
        }
        const text = head.subarray(0, end).toString("latin1");
        this.#status = Number(text.slice(9, 12));
        this.#remaining = Number(/content-length: *(\d+)/i.exec(text)?.[1] ?? 0);
        this.#head = Buffer.alloc(0);
        chunk = head.subarray(end + 4);
      }
      const taken = Math.min(this.#remaining, chunk.length);
      this.#remaining -= taken;
      chunk = chunk.subarray(taken);
      if (this.#remaining === 0) {
        this.#remaining = -1;
        const waiting = this.#waiting;
        this.#waiting = undefined;
        waiting?.(this.#status);
      }
    }
  }
}

// The load generator: a child process, CONCURRENCY connections with one request in flight each.
async function generate(job: Job): Promise<LoadResult> {
  const url = new URL(job.base);
  const connections = Array.from({ length: CONCURRENCY }, () => new Connection(Number(url.port)));
  const failures: Record<string, number> = {};
  const count = (status: number) => {
    if (status !== 200) failures[status] = (failures[status] ?? 0) + 1;
  };
  const host = `Host: ${url.host}\r\n`;

  try {
    if (job.kind === "submit") {
      const now = currentProtocolTime();
      const signers = job.keys.map((key) => signer(new Uint8Array(Buffer.from(key, "hex"))));
      const bodies: Uint8Array[] = [];
      for (let n = 0; n < job.perFid; n++) {
        job.fids.forEach((fid, i) =>
          bodies.push(signers[i]!(castData(fid, now - job.perFid + n, `benchmark cast ${n}`))),
        );
      }
      const heads = bodies.map(
        (body) =>
          `POST /v1/submitMessage HTTP/1.1\r\n${host}Content-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      let next = 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        connections.map(async (connection) => {
          while (next < bodies.length) {
            const i = next++;
            count(await connection.send(heads[i]!, bodies[i]));
          }
        }),
      );
      return {
        done: bodies.length,
        failures,
        elapsedMs: performance.now() - started,
        cpuMicros: cpuSince(cpu),
      };
    }

    const latencies: number[] = [];
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      connections.map(async (connection) => {
        while (performance.now() - started < job.durationMs) {
          const fid = job.fids[Math.floor(Math.random() * job.fids.length)]!;
          const t0 = performance.now();
          count(await connection.send(`GET /v1/castsByFid?fid=${fid}&pageSize=100 HTTP/1.1\r\n${host}\r\n`));
          latencies.push(performance.now() - t0);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    return {
      done: latencies.length,
      failures,
      elapsedMs: performance.now() - started,
      cpuMicros: cpuSince(cpu),
      p50: at(0.5),
      p99: at(0.99),
    };
  } finally {
    for (const connection of connections) connection.close();
  }
}

if (process.env.CASTNET_HUB_LOAD === "1" && process.send !== undefined) {
  process.once("message", (job: Job) => {
    void generate(job).then((result) => process.send!(result));
  });
}
