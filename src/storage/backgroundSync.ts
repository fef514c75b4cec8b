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

/** How often the checkpointer copies the WAL back into the database file. */
const CHECKPOINT_INTERVAL_MS = 250;

/**
 * WAL frames past which the checkpointer also rewinds the WAL. A passive checkpoint never waits, so
 * under steady writes it never catches up with the last frame, and SQLite only rewinds a WAL that
 * is fully copied back: now and then the checkpointer waits for the writer and finishes the job.
 * That rewind keeps the writer out for tens of milliseconds, so it is rare: with 4,096 frames it
 * set the hub's p99 (docs/performance.md).
 */
const REWIND_FRAMES = 8192;

const CHECKPOINTER = `
db.pragma("synchronous = NORMAL");
function checkpoint() {
  try {
    const [state] = db.pragma("wal_checkpoint(PASSIVE)");
    if (state.log > workerData.data.rewindFrames) db.pragma("wal_checkpoint(RESTART)");
  } catch {}
}
const timer = setInterval(checkpoint, workerData.data.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
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
