import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { sendPage } from "../../src/hub/routes/json.js";
import { BufferPool, PooledText, TEXT_HEAD } from "../../src/storage/pooledText.js";

const MESSAGES = '{"a":1},{"b":"é✓"}';

/** A pool of one buffer, lent out with MESSAGES in it as a reader thread would leave it. */
function lentPage(): { pool: BufferPool; text: PooledText } {
  const pool = new BufferPool(1, 4096);
  const buffer = pool.take()!;
  const bytes = Buffer.from(MESSAGES);
  new Uint8Array(buffer, TEXT_HEAD).set(bytes);
  return { pool, text: new PooledText(pool, buffer, bytes.length) };
}

/** Waits up to a second for the pool to have its buffer back (the answer is written a moment after). */
async function bufferBack(pool: BufferPool): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (pool.take() !== undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail("the lent buffer did not come back");
}

describe("a page sent from a buffer lent to a reader thread", () => {
  it("answers the same bytes as a page held as a string, and the buffer goes back once the answer is written", async () => {
    const { pool, text } = lentPage();
    const app = Fastify();
    app.get("/lent", (_request, reply) => sendPage(reply, { messages: text, nextPageToken: "AQID" }));
    app.get("/string", (_request, reply) => sendPage(reply, { messages: MESSAGES, nextPageToken: "AQID" }));
    try {
      const expected = `{"messages":[${MESSAGES}],"nextPageToken":"AQID"}`;
      for (const path of ["/lent", "/string"]) {
        const response = await app.inject({ method: "GET", url: path });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers["content-type"], "application/json; charset=utf-8");
        assert.equal(response.headers["content-length"], String(Buffer.byteLength(expected)));
        assert.equal(response.body, expected);
      }
      await bufferBack(pool);
    } finally {
      await app.close();
    }
  });

  it("gives the buffer back when the caller hung up before the page was sent", async () => {
    const { pool, text } = lentPage();
    let hungUp!: () => void;
    const gone = new Promise<void>((resolve) => (hungUp = resolve));
    const app = Fastify();
    app.get("/lent", async (request, reply) => {
      request.raw.socket.once("close", hungUp);
      await gone;
      return sendPage(reply, { messages: text, nextPageToken: "" });
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const { port } = app.server.address() as { port: number };
      const socket = connect(port, "127.0.0.1", () => {
        socket.write("GET /lent HTTP/1.1\r\nHost: localhost\r\n\r\n");
        setTimeout(() => socket.destroy(), 20);
      });
      await gone;
      await bufferBack(pool);
    } finally {
      await app.close();
    }
  });
});
