import { connect, type Socket } from "node:net";

/**
 * One keep-alive connection with one request in flight, speaking HTTP/1.1 over a raw socket:
 * Node's HTTP client costs more CPU per request than the server it measures, on the same cores.
 */
export class Connection {
  readonly #socket: Socket;
  /** Whether a response's body is kept (to read a cursor from it) or only counted. */
  readonly #keepBody: boolean;
  /** Bytes of a response head not yet complete. */
  #head: Buffer = Buffer.alloc(0);
  /** Body bytes still to come of the response being read, or -1 while reading its head. */
  #remaining = -1;
  #status = 0;
  #body: Buffer[] = [];
  #waiting: ((status: number) => void) | undefined;
  /** The body of the last response, when bodies are kept. */
  lastBody: Buffer = Buffer.alloc(0);

  constructor(port: number, keepBody = false) {
    this.#keepBody = keepBody;
    // Reads land in one reused buffer: a fresh buffer per read cost the generator, on the cores it
    // shares with the server, more CPU than the kernel's copy.
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

  /** Sends a request (its head ends with the blank line) and resolves with the response's status. */
  send(head: string, body?: Uint8Array): Promise<number> {
    return new Promise((resolve) => {
      this.#waiting = resolve;
      this.#socket.write(body === undefined ? head : Buffer.concat([Buffer.from(head), body]));
    });
  }

  close(): void {
    this.#socket.destroy();
  }

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
      // Copied for the same reason; a page of messages is about 100 KB, so only kept when asked.
      if (this.#keepBody && taken > 0) this.#body.push(Buffer.from(chunk.subarray(0, taken)));
      this.#remaining -= taken;
      chunk = chunk.subarray(taken);
      if (this.#remaining === 0) {
        this.#remaining = -1;
        if (this.#keepBody) {
          this.lastBody = Buffer.concat(this.#body);
          this.#body = [];
        }
        const waiting = this.#waiting;
        this.#waiting = undefined;
        waiting?.(this.#status);
      }
    }
  }
}
