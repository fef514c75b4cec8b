/**
 * Long texts a reader thread hands the thread that serves HTTP without a string on that thread's
 * heap: the reader writes the text's UTF-8 into a buffer lent to it with the read (moved, not
 * copied, each way) and the answer is sent from that buffer. A page of a hundred messages is about
 * 64 KB; as a string it lands in the main thread's young generation, is flattened and joined with
 * its head and tail, and at thousands of pages a second the collector copies and promotes the ones
 * in flight (docs/performance.md). A buffer goes back to its pool once its answer is written, so
 * its memory is neither garbage nor new.
 */

/** Bytes kept free before and after the text in a buffer, for the answer's head and tail. */
export const TEXT_HEAD = 64;
export const TEXT_TAIL = 192;

/** At most `count` buffers of `bytes` each, made when first needed; the last returned is the next lent. */
export class BufferPool {
  readonly #free: ArrayBuffer[] = [];
  readonly #bytes: number;
  #unmade: number;

  constructor(count: number, bytes: number) {
    this.#unmade = count;
    this.#bytes = bytes;
  }

  /** A buffer to lend, or undefined when every one is out (the caller then takes a string). */
  take(): ArrayBuffer | undefined {
    const free = this.#free.pop();
    if (free !== undefined || this.#unmade === 0) return free;
    this.#unmade--;
    return new ArrayBuffer(this.#bytes);
  }

  give(buffer: ArrayBuffer): void {
    this.#free.push(buffer);
  }

  /** A lent buffer that will not come back (its thread died): the pool may make another. */
  lost(): void {
    this.#unmade++;
  }
}

/** A text written at TEXT_HEAD of a pooled buffer, held until `release()`. */
export class PooledText {
  readonly #pool: BufferPool;
  readonly #buffer: ArrayBuffer;
  /** The text's length in UTF-8 bytes. */
  readonly byteLength: number;
  #released = false;

  constructor(pool: BufferPool, buffer: ArrayBuffer, byteLength: number) {
    this.#pool = pool;
    this.#buffer = buffer;
    this.byteLength = byteLength;
  }

  /**
   * The text between `head` and `tail`, as one Buffer over the pooled memory (a copy only when they
   * do not fit the room around it), valid until `release()`.
   */
  framed(head: string, tail: string): Buffer {
    const headBytes = Buffer.byteLength(head);
    const tailBytes = Buffer.byteLength(tail);
    if (headBytes > TEXT_HEAD || tailBytes > TEXT_TAIL)
      return Buffer.concat([Buffer.from(head), this.#text(), Buffer.from(tail)]);
    const framed = Buffer.from(this.#buffer, TEXT_HEAD - headBytes, headBytes + this.byteLength + tailBytes);
    framed.write(head, 0);
    framed.write(tail, headBytes + this.byteLength);
    return framed;
  }

  toString(): string {
    return this.#text().toString("utf8");
  }

  /** Gives the buffer back to its pool; later calls do nothing. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#pool.give(this.#buffer);
  }

  #text(): Buffer {
    return Buffer.from(this.#buffer, TEXT_HEAD, this.byteLength);
  }
}
