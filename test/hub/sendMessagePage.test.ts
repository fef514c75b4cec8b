import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { sendMessagePage } from "../../src/hub/api/routes/json.js";
import { PooledText, SlotPool, TEXT_HEAD } from "../../src/storage/pooledText.js";

const MESSAGES = '{"a":1},{"b":"é✓"}';

/** A pool of one slot, taken, with MESSAGES in it as a reader thread would leave it. */
function slotPage(): { pool: SlotPool; text: PooledText } {
  const pool = new SlotPool(1, 4096);
  const slot = pool.take()!;
  const bytes = Buffer.from(MESSAGES);
  new Uint8Array(pool.shared.buffer, slot * pool.shared.slotBytes + TEXT_HEAD).set(bytes);
  return { pool, text: new PooledText(pool, slot, bytes.length) };
}

/** Waits up to a second for the pool to have its slot back (the answer is written a moment after). */
async function slotBack(pool: SlotPool): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (pool.take() !== undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail("the slot did not come back");
}

describe("a page sent from memory shared with a reader thread", () => {
  it("answers the same bytes as a page held as a string, and its slot is free again once the answer is written", async () => {
    const { pool, text } = slotPage();
    const app = Fastify();
    app.get("/slot", (_request, reply) => sendMessagePage(reply, { messages: text, nextPageToken: "AQID" }));
    app.get("/string", (_request, reply) =>
      sendMessagePage(reply, { messages: MESSAGES, nextPageToken: "AQID" }),
    );
    try {
      const expected = `{"messages":[${MESSAGES}],"nextPageToken":"AQID"}`;
      for (const path of ["/slot", "/string"]) {
        const response = await app.inject({ method: "GET", url: path });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers["content-type"], "application/json; charset=utf-8");
        assert.equal(response.headers["content-length"], String(Buffer.byteLength(expected)));
        assert.equal(response.body, expected);
      }
      await slotBack(pool);
    } finally {
      await app.close();
    }
  });

  it("frees the slot when the caller hung up before the page was sent", async () => {
    const { pool, text } = slotPage();
    let hungUp!: () => void;
    const gone = new Promise<void>((resolve) => (hungUp = resolve));
    const app = Fastify();
    app.get("/slot", async (request, reply) => {
      request.raw.socket.once("close", hungUp);
      await gone;
      return sendMessagePage(reply, { messages: text, nextPageToken: "" });
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const { port } = app.server.address() as { port: number };
      const socket = connect(port, "127.0.0.1", () => {
        socket.write("GET /slot HTTP/1.1\r\nHost: localhost\r\n\r\n");
        setTimeout(() => socket.destroy(), 20);
      });
      await gone;
      await slotBack(pool);
    } finally {
      await app.close();
    }
  });
});
