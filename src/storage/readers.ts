/**
 * Big reads of a SQLite file on worker threads. better-sqlite3 runs a query on the calling thread,
 * so a page of a hundred messages (about 64 KB walked and joined) occupies the thread that serves
 * HTTP for its whole run; a reader thread with a connection of its own runs it beside that thread.
 * In WAL mode a reader sees every transaction committed before its query starts, so a write that
 * was answered is visible to every read that follows it.
 */
import type { Worker } from "node:worker_threads";
import type { CompiledQuery } from "kysely";
import { PooledText, type SlotPool, TEXT_HEAD, TEXT_TAIL } from "./pooledText.js";
import type { WithPooledText } from "./pooledText.js";
import { startSqliteWorker } from "./sqliteSettings.js";

const READER = `
db.pragma("query_only = 1");
const statements = new Map();
function statement(sql) {
  let found = statements.get(sql);
  if (found === undefined) {
    if (statements.size >= 256) statements.delete(statements.keys().next().value);
    statements.set(sql, (found = db.prepare(sql)));
  }
  return found;
}
// Structured cloning turns Buffers into Uint8Arrays; better-sqlite3 binds Buffers.
const bind = (value) => (value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.length) : value);
const slots = workerData.data.slots;
const memory = slots && new Uint8Array(slots.buffer);
const room = slots ? slots.slotBytes - ${TEXT_HEAD} - ${TEXT_TAIL} : 0;
const encoder = new TextEncoder();
/**
 * Writes a text (as UTF-8) or bytes at ${TEXT_HEAD} of a slot (pooledText.ts): their length, or -1
 * when they do not fit.
 */
function write(value, slot) {
  // A UTF-16 unit is at least one byte of UTF-8: a longer text cannot fit.
  if (value.length > room) return -1;
  const start = slot * slots.slotBytes + ${TEXT_HEAD};
  if (typeof value !== "string") {
    memory.set(value, start);
    return value.length;
  }
  const { read, written } = encoder.encodeInto(value, memory.subarray(start, start + room));
  return read === value.length ? written : -1;
}
parentPort.on("message", (request) => {
  if (request === "close") {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const rows = statement(request.sql).all(request.parameters.map(bind));
    let bytes = -1;
    const into = request.into;
    if (into !== undefined && rows.length === 1) {
      const value = rows[0][into.column];
      if (typeof value === "string" || value instanceof Uint8Array) bytes = write(value, into.slot);
      if (bytes >= 0) rows[0][into.column] = null;
    }
    parentPort.postMessage({ id: request.id, rows, bytes });
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: { message: String(error.message), code: error.code } });
  }
});
`;

interface Pending {
  worker: Worker;
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
  /** The slot the read's text or blob is asked into, and its column (readLongText). */
  into?: { slot: number; column: string };
}

/** `bytes`: the length of what was written into the read's slot, or -1 when nothing was. */
type Reply =
  | { id: number; rows: Record<string, unknown>[]; bytes: number }
  | { id: number; error: { message: string; code?: string } };

/** Blobs come back as Uint8Arrays; the rest of castnet (and better-sqlite3, for parameters) expects Buffers. */
function withBuffers(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const value = row[key];
    if (value instanceof Uint8Array) row[key] = Buffer.from(value.buffer, value.byteOffset, value.length);
  }
  return row;
}

/** Reader threads of one SQLite file, each with a connection of its own, used in turn. */
export class Readers {
  /** The threads still running: one that dies takes its pending reads with it, and no more. */
  readonly #workers: Worker[];
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #next = 0;
  #closing = false;

  readonly #slots: SlotPool | undefined;

  /** `slots`: where readLongText's texts and blobs are written; without them they come as strings and Buffers. */
  constructor(path: string, count: number, slots?: SlotPool) {
    this.#slots = slots;
    this.#workers = Array.from({ length: count }, () => {
      const worker = startSqliteWorker(READER, path, { slots: slots?.shared });
      worker.on("message", (reply: Reply) => this.#settle(reply));
      // An error is followed by 'exit', where its reads are failed.
      worker.on("error", () => undefined);
      worker.once("exit", () => this.#lost(worker));
      worker.unref();
      return worker;
    });
  }

  /** Whether a reader thread is running (a caller runs its query itself otherwise). */
  get running(): boolean {
    return this.#workers.length > 0;
  }

  /** Runs a compiled read query on the next reader thread. */
  read<Row>(query: CompiledQuery<Row>): Promise<Row[]> {
    return this.#ask(query);
  }

  /**
   * `read` of a query of one row whose `column` is a long text or blob: it comes as a PooledText
   * while a slot is free and it fits one, as a string or Buffer otherwise.
   */
  readLongText<Row, Column extends keyof Row & string>(
    query: CompiledQuery<Row>,
    column: Column,
  ): Promise<WithPooledText<Row, Column>[]> {
    const slot = this.#slots?.take();
    return this.#ask(query, slot === undefined ? undefined : { slot, column });
  }

  #ask<Row>(query: CompiledQuery<Row>, into?: Pending["into"]): Promise<Row[]> {
    const id = this.#nextId++;
    const worker = this.#workers[this.#next++ % this.#workers.length]!;
    // Idle readers do not keep the process alive; busy ones do, until their answers arrive.
    if (this.#pending.size === 0) for (const w of this.#workers) w.ref();
    return new Promise<Row[]>((resolve, reject) => {
      this.#pending.set(id, { worker, resolve: resolve as (rows: unknown[]) => void, reject, into });
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters, into });
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    const workers = [...this.#workers];
    const exits = workers.map((worker) => new Promise((resolve) => worker.once("exit", resolve)));
    for (const worker of workers) {
      worker.ref();
      worker.postMessage("close");
    }
    await Promise.all(exits);
  }

  #settle(reply: Reply): void {
    const pending = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) for (const worker of this.#workers) worker.unref();
    if (pending === undefined) return;
    const { into } = pending;
    const text = into !== undefined && "rows" in reply && reply.bytes >= 0;
    // A slot that holds no text is free again at once.
    if (into !== undefined && !text) this.#slots!.give(into.slot);
    if ("error" in reply) {
      pending.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    } else {
      const rows = reply.rows.map(withBuffers);
      if (text) rows[0]![into.column] = new PooledText(this.#slots!, into.slot, reply.bytes);
      pending.resolve(rows);
    }
  }

  #lost(worker: Worker): void {
    this.#workers.splice(this.#workers.indexOf(worker), 1);
    const error = new Error(this.#closing ? "the database is closed" : "a reader thread stopped");
    for (const [id, pending] of this.#pending) {
      if (pending.worker !== worker) continue;
      this.#pending.delete(id);
      if (pending.into !== undefined) this.#slots!.give(pending.into.slot);
      pending.reject(error);
    }
  }
}
