/**
 * Long texts (and blobs) a reader thread hands the thread that serves HTTP without a string or a
 * buffer on that thread's heap: the reader writes the text's UTF-8 into a slot of memory the two
 * threads share, and the answer is sent from the slot. A page of a hundred messages is about 64 KB; as a string it lands in
 * the main thread's young generation, is flattened and joined with its head and tail, and at
 * thousands of pages a second the collector copies and promotes the ones in flight. Nor is it
 * moved as a buffer: V8 counts every ArrayBuffer that arrives from another thread as new memory
 * outside its heap and answers a few dozen MiB of them with a full collection
 * (docs/performance.md). A slot is used again once its answer has been written, and the one
 * SharedArrayBuffer is counted once.
 */

/** Bytes kept free before and after the text in a slot, for the answer's head and tail. */
export const TEXT_HEAD = 64;
export const TEXT_TAIL = 192;

/** What a reader thread is told of the slots (it can be posted to a thread as it is). */
export interface SharedSlots {
  buffer: SharedArrayBuffer;
  slotBytes: number;
}

/** `count` slots of `slotBytes` in one SharedArrayBuffer; the last given back is the next taken. */
export class SlotPool {
  readonly shared: SharedSlots;
  readonly #free: number[];

  constructor(count: number, slotBytes: number) {
    // Its pages are mapped as they are first written: slots never used cost no memory.
    this.shared = { buffer: new SharedArrayBuffer(count * slotBytes), slotBytes };
    this.#free = Array.from({ length: count }, (_, i) => count - 1 - i);
  }

  /** A free slot, or undefined when every one is in use (the caller then takes a string). */
  take(): number | undefined {
    return this.#free.pop();
  }

  give(slot: number): void {
    this.#free.push(slot);
  }
}

/** A text (UTF-8) or bytes written at TEXT_HEAD of a slot, held until `release()`. */
export class PooledText {
  readonly #pool: SlotPool;
  readonly #slot: number;
  readonly #start: number;
  /** The text's length in UTF-8 bytes. */
  readonly byteLength: number;
  #released = false;

  constructor(pool: SlotPool, slot: number, byteLength: number) {
    this.#pool = pool;
    this.#slot = slot;
    this.#start = slot * pool.shared.slotBytes + TEXT_HEAD;
    this.byteLength = byteLength;
  }

  /**
   * The text between `head` and `tail` (text as UTF-8, or bytes), as one Buffer over the slot (a
   * copy only when they do not fit the room around it), valid until `release()`.
   */
  framed(head: string | Uint8Array, tail: string | Uint8Array): Buffer {
    const headBytes = typeof head === "string" ? Buffer.byteLength(head) : head.length;
    const tailBytes = typeof tail === "string" ? Buffer.byteLength(tail) : tail.length;
    if (headBytes > TEXT_HEAD || tailBytes > TEXT_TAIL)
      return Buffer.concat([Buffer.from(head), this.#text(), Buffer.from(tail)]);
    this.#held();
    const { buffer } = this.#pool.shared;
    const framed = Buffer.from(buffer, this.#start - headBytes, headBytes + this.byteLength + tailBytes);
    put(framed, 0, head);
    put(framed, headBytes + this.byteLength, tail);
    return framed;
  }

  /** After a release the slot may hold another read's text: refusing to read it beats sending it. */
  #held(): void {
    if (this.#released) throw new Error("a pooled text was read after its release");
  }

  /** Gives the slot back to its pool; later calls do nothing. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#pool.give(this.#slot);
  }

  #text(): Buffer {
    this.#held();
    return Buffer.from(this.#pool.shared.buffer, this.#start, this.byteLength);
  }
}

function put(into: Buffer, at: number, value: string | Uint8Array): void {
  if (typeof value === "string") into.write(value, at);
  else into.set(value, at);
}

/** A row whose `Column` may hold a PooledText instead of its text or bytes. */
export type WithPooledText<Row, Column extends keyof Row> = Omit<Row, Column> & {
  [K in Column]: Row[K] | PooledText;
};
