/**
 * Durability off the event loop for a SQLite file in WAL mode. better-sqlite3 is synchronous, so
 * with `synchronous = FULL` every commit blocks the thread that serves HTTP for an fsync, and every
 * automatic checkpoint for two more. Here commits only write their WAL frames (`synchronous =
 * NORMAL`); `durable()` then fsyncs the WAL file on libuv's thread pool, one fsync for every commit
 * made before it started, and checkpoints run in a worker thread on a connection of their own.
 * A caller that awaits `durable()` after its commit has the same guarantee as with FULL: its
 * transaction survives a power cut.
 */
import { open, type FileHandle } from "node:fs/promises";
import type SQLite from "better-sqlite3";
import { startSqliteWorker } from "./sqliteSettings.js";

/** The longest wait between two passes of the checkpointer (each copies the WAL back into the file). */
const CHECKPOINT_INTERVAL_MS = 250;
/**
 * The shortest: before the first pass, between passes near the rewind threshold under a fast writer,
 * and after a pass SQLite found busy.
 */
const CHECKPOINT_MIN_INTERVAL_MS = 10;

/**
 * WAL frames past which the checkpointer also rewinds the WAL. A passive checkpoint never waits, so
 * under steady writes it never catches up with the last frame, and SQLite only rewinds a WAL that
 * is fully copied back: now and then the checkpointer waits for the writer and finishes the job.
 * That rewind keeps the writer out for tens of milliseconds, so it is rare: with 4,096 frames it
 * set the hub's p99 (docs/performance.md).
 */
const REWIND_FRAMES = 8192;

/**
 * The checkpointer's thread. Its next pass comes after the interval, or sooner when the WAL is
 * growing fast enough to pass the rewind threshold before then: at half the time the recent growth
 * says it would take, so that passes come closer together as the WAL nears the threshold, and a
 * fast writer cannot take the WAL far past it between two passes.
 */
const CHECKPOINTER = `
db.pragma("synchronous = NORMAL");
const { intervalMs, minIntervalMs, rewindFrames } = workerData.data;
let last = { frames: 0, at: performance.now() };
// Frames a millisecond: the fastest growth seen lately, halved at each pass that sees slower. A
// writer held up by a rewind grows the WAL slowly for a moment after it, then at full speed again.
let rate = 0;
let timer;
function checkpoint() {
  let next = intervalMs;
  try {
    const at = performance.now();
    const [state] = db.pragma("wal_checkpoint(PASSIVE)");
    // Busy (another connection is checkpointing or opening the WAL): try again soon.
    if (state.busy !== 0) return minIntervalMs;
    // A WAL shorter than at the last pass was rewound meanwhile: all of it is new.
    const grown = state.log >= last.frames ? state.log - last.frames : state.log;
    rate = Math.max(grown / Math.max(1, at - last.at), rate / 2);
    last = { frames: state.log, at };
    if (state.log > rewindFrames) {
      db.pragma("wal_checkpoint(RESTART)");
      last = { frames: 0, at: performance.now() };
    }
    if (rate > 0) next = Math.min(intervalMs, Math.max(minIntervalMs, (rewindFrames - last.frames) / rate / 2));
  } catch {}
  return next;
}
function schedule(ms) {
  timer = setTimeout(() => schedule(checkpoint()), ms);
}
// The first pass comes soon: until one has measured it, a writer may be as fast as any.
schedule(minIntervalMs);
parentPort.on("message", () => {
  clearTimeout(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface BackgroundSync {
  /** Resolves once every transaction committed before the call is on stable storage. */
  durable(): Promise<void>;
  close(): Promise<void>;
}

/** For a connection opened with `synchronous = NORMAL`: takes over its checkpoints and its fsyncs. */
export function startBackgroundSync(sqlite: SQLite.Database, path: string): BackgroundSync {
  sqlite.pragma("wal_autocheckpoint = 0");
  const checkpointer = startSqliteWorker(CHECKPOINTER, path, {
    intervalMs: CHECKPOINT_INTERVAL_MS,
    minIntervalMs: CHECKPOINT_MIN_INTERVAL_MS,
    rewindFrames: REWIND_FRAMES,
  });
  checkpointer.unref();
  const wal = new WalFsync(`${path}-wal`);
  return {
    durable: () => wal.durable(),
    async close() {
      const exited = new Promise((resolve) => checkpointer.once("exit", resolve));
      // Its last checkpoint must finish even if nothing else keeps the process alive.
      checkpointer.ref();
      checkpointer.postMessage("close");
      await exited;
      await wal.close();
    },
  };
}

/**
 * Coalesces fsyncs of one file: a caller arriving while an fsync runs cannot count on it (its
 * commit may have written after the fsync began), so it waits for the next one, which every caller
 * arriving meanwhile shares.
 */
class WalFsync {
  #handle: Promise<FileHandle | undefined> | undefined;
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(private readonly path: string) {}

  durable(): Promise<void> {
    if (this.#running === undefined) return this.#start();
    this.#next ??= this.#running.then(
      () => this.#startNext(),
      () => this.#startNext(),
    );
    return this.#next;
  }

  #startNext(): Promise<void> {
    this.#next = undefined;
    return this.#start();
  }

  #start(): Promise<void> {
    const running = this.#sync().finally(() => {
      if (this.#running === running) this.#running = undefined;
    });
    this.#running = running;
    return running;
  }

  async #sync(): Promise<void> {
    // Opened at the first sync: the WAL file exists from the first commit on, and keeps its inode
    // while the database is open (a checkpoint rewinds it; only the last close deletes it).
    this.#handle ??= open(this.path, "r+").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    const handle = await this.#handle;
    if (handle === undefined) {
      // Nothing was ever committed; try again next time.
      this.#handle = undefined;
      return;
    }
    await handle.sync();
  }

  async close(): Promise<void> {
    await this.#next?.catch(() => undefined);
    await this.#running?.catch(() => undefined);
    const handle = await this.#handle?.catch(() => undefined);
    await handle?.close();
  }
}
