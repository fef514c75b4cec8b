/**
 * Attacks on the hub's SSE stream (GET /v1/events/stream), over real sockets: more streams than the
 * hub can feed, many subscribers that must all see the same events in order, a subscriber resuming
 * from an old id while the live feed moves on, time limits that must not cut a stream, and the cost
 * of a submit with hundreds of idle subscribers. Second review, finding 9: a web page's streams
 * cannot lock the machine's own tools out.
 */
import assert from "node:assert/strict";
import { request, type IncomingMessage } from "node:http";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import { listen } from "../../src/http/index.js";
import type { Hub } from "../../src/hub/index.js";
import { testEngines } from "../support/databases.js";
import {
  castAdd,
  encode,
  get,
  newAccount,
  post,
  startStack,
  type Account,
  type Stack,
} from "../hub/support.js";

interface Stream {
  response: IncomingMessage;
  /** Everything received, as text. */
  text: string;
  /** Event ids received so far, in order. */
  ids: number[];
  close(): void;
}

/**
 * Opens a stream from `localAddress` (any 127.x.y.z is this host: distinct clients for the caps), as a
 * web page of `origin` would when one is given.
 */
function open(base: string, query = "", localAddress = "127.0.0.1", origin?: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const headers = origin === undefined ? {} : { origin };
    const req = request(
      `${base}/v1/events/stream${query}`,
      { agent: false, localAddress, headers },
      (response) => {
        const stream: Stream = { response, text: "", ids: [], close: () => req.destroy() };
        let buffer = "";
        response.on("data", (chunk: Buffer) => {
          stream.text += String(chunk);
          buffer += String(chunk);
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const id = /^id: (\d+)$/m.exec(buffer.slice(0, end));
            if (id) stream.ids.push(Number(id[1]));
            buffer = buffer.slice(end + 2);
          }
        });
        response.on("error", () => undefined);
        resolve(stream);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function body(stream: Stream): Promise<unknown> {
  if (!stream.response.complete) await new Promise((resolve) => stream.response.once("end", resolve));
  return JSON.parse(stream.text);
}

async function until(what: string, done: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function submitCasts(stack: Stack, account: Account, n: number, label: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    const answer = await post(stack, "/v1/submitMessage", encode(await castAdd(account, `${label} ${i}`)));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  }
}

/** Every event id from `fromId` on, from the paged /v1/events. */
async function allIdsFrom(hub: Hub, fromId: number): Promise<number[]> {
  const ids: number[] = [];
  for (let from = fromId; ;) {
    const { body: page } = await get(hub, `/v1/events?from_event_id=${from}`);
    const events = page.events as { id: number }[];
    ids.push(...events.map((event) => event.id));
    if (events.length < 100) return ids;
    from = events.at(-1)!.id + 1;
  }
}

/** Opens N streams to the hub at argv[1]; on each id read from stdin, says "delivered" once every stream has it. */
const SUBSCRIBERS = `
const { connect } = require("node:net");
const [base, count] = process.argv.slice(1);
const { port } = new URL(base);
const seen = [];
let ready = 0;
for (let i = 0; i < Number(count); i++) {
  const socket = connect(Number(port), "127.0.0.1");
  seen.push("");
  socket.write("GET /v1/events/stream HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n");
  socket.on("data", (chunk) => {
    if (seen[i] === "" && ++ready === Number(count)) console.log("ready");
    seen[i] = (seen[i] + chunk).slice(-16000);
  });
}
let target;
setInterval(() => {
  if (target && seen.every((tail) => tail.includes("id: " + target + "\\n"))) {
    target = undefined;
    console.log("delivered");
  }
}, 5);
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => (target = line));
`;

const [sqlite] = await testEngines();

describe("the hub's event stream under load", () => {
  let stack: Stack;
  let hub: Hub;
  let base: string;
  let alice: Account;

  before(async () => {
    stack = await startStack(sqlite!, {
      streams: { maxStreams: 600, maxStreamsPerClient: 550 },
      // Short time limits: a stream is a long response and must outlive them all.
      http: { requestTimeoutMs: 1_000, headersTimeoutMs: 500, idleTimeoutMs: 1_000 },
    });
    hub = stack.hub;
    base = await listen(hub.app, "hub", "127.0.0.1", 0);
    alice = await newAccount(stack, 5);
  });
  after(async () => {
    await stack?.close();
  });

  it("caps open streams per client (429) and in all (503), in the hub's error shape", async () => {
    const capped = await startStack(sqlite!, { streams: { maxStreams: 5, maxStreamsPerClient: 3 } });
    try {
      const url = await listen(capped.hub.app, "hub", "127.0.0.1", 0);
      const held = [
        ...(await Promise.all([1, 2, 3].map(() => open(url)))),
        ...(await Promise.all([1, 2].map(() => open(url, "", "127.0.0.2")))),
      ];
      for (const stream of held) assert.equal(stream.response.statusCode, 200);

      const perClient = await open(url);
      assert.equal(perClient.response.statusCode, 429);
      assert.deepEqual(await body(perClient), {
        errCode: "unavailable",
        presentable: false,
        name: "HubError",
        code: 14,
        details: "this client has 3 event streams open, the most the hub allows one client; close one first",
        metadata: { errcode: ["unavailable"] },
      });
      const global = await open(url, "", "127.0.0.3");
      assert.equal(global.response.statusCode, 503);
      assert.deepEqual(await body(global), {
        errCode: "unavailable",
        presentable: false,
        name: "HubError",
        code: 14,
        details: "the hub serves as many event streams as it can; try again later",
        metadata: { errcode: ["unavailable"] },
      });

      // A closed stream frees its place.
      held[0]!.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = await open(url);
      assert.equal(again.response.statusCode, 200);
      again.close();
      for (const stream of held) stream.close();
    } finally {
      await capped.close();
    }
  });

  it("second review 9: a web page's streams count apart from the machine's own tools", async () => {
    const capped = await startStack(sqlite!, { streams: { maxStreams: 50, maxStreamsPerClient: 3 } });
    try {
      const url = await listen(capped.hub.app, "hub", "127.0.0.1", 0);
      // The page opens them through a.localhost, b.localhost, …: the browser sends its own origin each time.
      const page = await Promise.all([1, 2, 3].map(() => open(url, "", "127.0.0.1", "https://evil.example")));
      for (const stream of page) assert.equal(stream.response.statusCode, 200);
      const more = await open(url, "", "127.0.0.1", "https://evil.example");
      assert.equal(more.response.statusCode, 429);
      // The developer's `events tail` and indexers (no Origin) and the explorer's own page still get theirs.
      const tools = await Promise.all([1, 2, 3].map(() => open(url)));
      for (const stream of tools) assert.equal(stream.response.statusCode, 200);
      const explorer = await open(url, "", "127.0.0.1", "http://127.0.0.1:2282");
      assert.equal(explorer.response.statusCode, 200);
      for (const stream of [...page, ...tools, explorer]) stream.close();
    } finally {
      await capped.close();
    }
  });

  it("feeds many subscribers the same events in order", async () => {
    const streams = await Promise.all(Array.from({ length: 100 }, () => open(base)));
    const from = (await allIdsFrom(hub, 0)).at(-1)! + 1;
    await submitCasts(stack, alice, 20, "fan-out");
    const expected = await allIdsFrom(hub, from);
    assert.equal(expected.length, 20);
    await until("every subscriber to get every event", () => streams.every((s) => s.ids.length >= 20));
    for (const stream of streams) assert.deepEqual(stream.ids, expected);
    for (const stream of streams) stream.close();
  });

  it("gives a subscriber resuming from an old id every event exactly once, into the live feed", async () => {
    const first = (await allIdsFrom(hub, 0)).at(-1)! + 1;
    await submitCasts(stack, alice, 230, "backlog");
    const live = await open(base);
    // Resume from the start of the backlog while new events keep arriving on the shared feed.
    const writing = submitCasts(stack, alice, 60, "during");
    const resumed = await open(base, `?from_event_id=${first}`);
    await writing;
    const expected = await allIdsFrom(hub, first);
    assert.equal(expected.length, 290);
    await until("the resumed stream to reach the head", () => resumed.ids.length >= expected.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(resumed.ids, expected);
    live.close();
    resumed.close();
  });

  it("keeps a stream open past the request, header and idle time limits", async () => {
    const stream = await open(base);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await submitCasts(stack, alice, 1, "after a quiet while");
    await until("the event after the quiet while", () => stream.ids.length === 1);
    assert.equal(stream.response.complete, false);
    stream.close();
  });

  it("costs a submit with 500 idle subscribers a small multiple of one with none, not a read each", async () => {
    /** CPU µs per message; with subscribers, counted until every one has the last event. */
    const cost = async (label: string, delivered?: (lastId: number) => Promise<void>) => {
      const start = process.cpuUsage();
      await submitCasts(stack, alice, 100, label);
      await delivered?.((await allIdsFrom(hub, 0)).at(-1)!);
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 100;
    };
    await cost("warm-up");
    const none = await cost("no subscribers");
    // The subscribers live in another process, so that this one's CPU time is the hub's alone.
    const crowd = spawn(process.execPath, ["-e", SUBSCRIBERS, base, "500"], { stdio: "pipe" });
    const lines = createInterface({ input: crowd.stdout })[Symbol.asyncIterator]();
    const next = async () => String((await lines.next()).value);
    try {
      assert.equal(await next(), "ready");
      const crowded = await cost("500 subscribers", async (lastId) => {
        crowd.stdin.write(`${lastId}\n`);
        assert.equal(await next(), "delivered");
      });
      console.log(
        `# CPU per submitted message: ${none.toFixed(0)} µs with no subscribers, ${crowded.toFixed(0)} µs with 500`,
      );
      // Before the shared reader: 4,047 µs against 284,609 µs (70×); each write to a socket still costs.
      assert.ok(
        crowded < none * 8,
        `${crowded.toFixed(0)} µs with 500 subscribers against ${none.toFixed(0)} µs`,
      );
    } finally {
      crowd.kill();
    }
  });
});
