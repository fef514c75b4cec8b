/**
 * Attacks on the HTTP rules every part shares, made over real sockets against the stack as
 * `castnet start` composes it: a web page (or a DNS-rebinding attack) driving operator writes from
 * the developer's browser, bodies and headers that trickle in, a crowd of connections, and bodies
 * over the limit that must still end in a readable 413. Second review, findings 6 and 8: framing, and
 * CORS on the explorer's pages.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseStartOptions } from "../../src/stack/options.js";
import { type RunningStack, startStack } from "../../src/stack/stack.js";
import { createHttpServer, createLogger, type ErrorShape } from "../../src/http/index.js";
import { FREE_PORTS } from "../support/ports.js";

type Part = "registry" | "hub" | "api" | "chain";
const PARTS: readonly Part[] = ["registry", "hub", "api", "chain"];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** One request on a fresh connection (no pooling: connection counts stay exact), any Host header. */
function call(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method: options.method ?? "GET", headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: compared as text
          }
          resolve({ status: res.statusCode!, headers: res.headers, body });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const json = (body: unknown) => ({ "content-type": "application/json", body: JSON.stringify(body) });
const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const { body: text, ...type } = json(body);
  return call(base, path, { method: "POST", headers: { ...type, ...headers }, body: text });
};

/** Each part's error body for one sentence. */
function shaped(part: Part, message: string, status: number): unknown {
  if (part === "registry") return { error: message };
  if (part === "api") return { errors: [{ message }] };
  if (part === "chain") return { error: status === 403 ? "forbidden" : "bad_request", message };
  const errCode =
    status === 403
      ? "unauthorized"
      : status === 400
        ? "bad_request.validation_failure"
        : status === 408 || status === 421
          ? "bad_request"
          : "bad_request.parse_failure";
  return {
    errCode,
    presentable: false,
    name: "HubError",
    code: status === 403 ? 7 : 3,
    details: message,
    metadata: { errcode: [errCode] },
  };
}

const CUSTODY = "0x00000000000000000000000000000000000000aa";
const KEY = `0x${"ab".repeat(32)}`;
const EVIL = "https://evil.example";

const originRefusal = (origin: string) =>
  `operator routes refuse requests sent by web pages of other origins (Origin: ${origin}); ` +
  "call them from outside a browser, or from a page of an origin listed in --trusted-origins";

/** One operator write on each part, as a page would send it. */
const OPERATOR_WRITES: Record<Exclude<Part, "registry">, { path: string; body: () => unknown }> = {
  chain: { path: "/v1/fids", body: () => ({ custody: `0x${randomBytes(20).toString("hex")}` }) },
  hub: { path: "/v1/admin/sync", body: () => ({}) },
  api: { path: "/v1/admin/power-badges/recalculate", body: () => ({}) },
};

describe("the HTTP rules every part shares", () => {
  let stack: RunningStack;
  let dataDir: string;
  let url: Record<Part, string>;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "castnet-security-"));
    const config = parseStartOptions(
      [
        ...["--data-dir", dataDir, "--block-time", "0"],
        ...FREE_PORTS,
        ...["--allowed-hosts", "castnet.example,Other.Example", "--trusted-origins", "https://admin.example"],
        ...["--request-timeout", "2", "--headers-timeout", "1", "--max-connections", "40"],
      ],
      {},
    );
    stack = await startStack(config, createLogger("silent"));
    url = stack.urls as Record<Part, string>;
  });

  after(async () => {
    await stack?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe("who may make operator writes", () => {
    it("refuses a write that a page of another origin sends from the developer's browser", async () => {
      // The attack of finding 3: add a signer to a fid the page does not own.
      const { body } = await post(url.chain, "/v1/fids", { custody: CUSTODY });
      const fid = (body as { fid: number }).fid;
      const attack = await post(url.chain, `/v1/fids/${fid}/signers`, { key: KEY }, { origin: EVIL });
      assert.equal(attack.status, 403);
      assert.deepEqual(attack.body, shaped("chain", originRefusal(EVIL), 403));
      const signers = await call(url.chain, `/v1/fids/${fid}/signers`);
      assert.deepEqual((signers.body as { signers?: unknown[] }).signers ?? [], []);

      for (const part of ["chain", "hub", "api"] as const) {
        const { path, body: write } = OPERATOR_WRITES[part];
        for (const origin of [EVIL, "null", "http://127.0.0.1:1", "https://admin.example.evil"]) {
          const refused = await post(url[part], path, write(), { origin });
          assert.equal(refused.status, 403, `${part} ${origin}`);
          assert.deepEqual(refused.body, shaped(part, originRefusal(origin), 403));
          assert.equal(refused.headers["access-control-allow-origin"], undefined);
        }
      }
    });

    it("accepts writes without an Origin, from the part's own pages and from trusted origins", async () => {
      for (const part of ["chain", "hub", "api"] as const) {
        const { path, body } = OPERATOR_WRITES[part];
        for (const origin of [undefined, url[part], "https://admin.example", "HTTPS://ADMIN.EXAMPLE:443"]) {
          const answer = await post(url[part], path, body(), origin === undefined ? {} : { origin });
          assert.equal(answer.status, 200, `${part} ${origin}: ${JSON.stringify(answer.body)}`);
          assert.equal(answer.headers["access-control-allow-origin"], undefined);
        }
      }
    });

    it("answers no CORS preflight on operator routes", async () => {
      for (const part of ["chain", "hub", "api"] as const) {
        const preflight = await call(url[part], OPERATOR_WRITES[part].path, {
          method: "OPTIONS",
          headers: { origin: EVIL, "access-control-request-method": "POST" },
        });
        assert.equal(preflight.status, 403, part);
        assert.deepEqual(preflight.body, shaped(part, originRefusal(EVIL), 403));
        const cors = Object.keys(preflight.headers).filter((name) => name.startsWith("access-control-"));
        assert.deepEqual(cors, [], part);
      }
    });

    it("keeps public reads open to every origin, preflight included", async () => {
      for (const part of PARTS) {
        const read = await call(url[part], "/_health", { headers: { origin: EVIL } });
        assert.equal(read.headers["access-control-allow-origin"], "*");
        const preflight = await call(url[part], "/_health", {
          method: "OPTIONS",
          headers: { origin: EVIL, "access-control-request-method": "GET" },
        });
        assert.equal(preflight.status, 204);
        assert.equal(preflight.headers["access-control-allow-origin"], "*");
      }
    });
  });

  describe("framing and the pages (second review, findings 6 and 8)", () => {
    it("forbids framing every answer of every part, so no page can click through Swagger UI in a frame", async () => {
      for (const part of PARTS) {
        for (const path of ["/_health", "/docs", "/openapi.json", "/no-such-route"]) {
          const answer = await call(url[part], path);
          assert.equal(answer.headers["x-frame-options"], "DENY", `${part} ${path}`);
          assert.match(
            String(answer.headers["content-security-policy"]),
            /frame-ancestors 'none'/,
            `${part} ${path}`,
          );
        }
      }
    });

    it("serves Swagger UI under a Content-Security-Policy that runs its own scripts only", async () => {
      for (const part of PARTS) {
        const docs = await call(url[part], "/docs");
        assert.equal(docs.status, 200);
        const policy = String(docs.headers["content-security-policy"]);
        assert.match(policy, /default-src 'self'/, part);
        assert.match(policy, /script-src 'self';/, part);
        assert.match(policy, /form-action 'none'/, part);
      }
    });

    it("sends no CORS headers with the explorer's pages", async () => {
      for (const path of ["/", "/events", "/approve?token=0x00", "/assets/style.css"]) {
        const page = await call(url.api, path, { headers: { origin: EVIL } });
        assert.equal(page.headers["access-control-allow-origin"], undefined, path);
        assert.equal(page.headers["access-control-expose-headers"], undefined, path);
      }
      // The API beside them stays open to every origin.
      const api = await call(url.api, "/v2/all-channels", { headers: { origin: EVIL } });
      assert.equal(api.headers["access-control-allow-origin"], "*");
    });
  });

  describe("which Host names a part answers to", () => {
    const hostRefusal = (name: string) =>
      `this server does not answer to the host name ${name}; ` +
      "if it is one of the server's names, list it in --allowed-hosts (CASTNET_ALLOWED_HOSTS)";

    it("refuses a Host name it was not told it serves, as DNS rebinding would send", async () => {
      for (const part of PARTS) {
        for (const [host, name] of [
          ["evil.example:2283", "evil.example"],
          ["evil.example", "evil.example"],
          ["localhost.evil.example", "localhost.evil.example"],
          ["castnet.example.evil", "castnet.example.evil"],
        ]) {
          const answer = await call(url[part], "/_health", { headers: { host: host! } });
          assert.equal(answer.status, 421, `${part} ${host}`);
          assert.deepEqual(answer.body, shaped(part, hostRefusal(name!), 421));
        }
      }
      // The attack itself: the rebound page's write never reaches the guard.
      const rebound = await post(url.chain, "/v1/fids", { custody: CUSTODY }, { host: "evil.example:2283" });
      assert.equal(rebound.status, 421);
    });

    it("accepts IP literals, localhost names and the configured names, on any port", async () => {
      for (const part of PARTS) {
        for (const host of [
          "127.0.0.1:1",
          "10.1.2.3",
          "[::1]:2283",
          "[2001:db8::1]",
          "localhost",
          "LOCALHOST:99",
          "app.localhost:3000",
          "castnet.example",
          "other.example:8080",
          "castnet.example.",
        ]) {
          const answer = await call(url[part], "/_health", { headers: { host } });
          assert.equal(answer.status, 200, `${part} ${host}: ${JSON.stringify(answer.body)}`);
        }
      }
    });

    it("answers HTTP/1.0 requests without a Host header, which no browser sends", async () => {
      const answer = await rawExchange(url.hub, "GET /_health HTTP/1.0\r\n\r\n");
      assert.match(answer, /^HTTP\/1.1 200 /);
    });

    it("turns the check off with *", async () => {
      const app = await createHttpServer({ ...plain, allowedHosts: ["*"] });
      try {
        const answer = await app.inject({ url: "/_health", headers: { host: "anything.example" } });
        assert.equal(answer.statusCode, 200);
      } finally {
        await app.close();
      }
    });
  });

  describe("slow and numerous clients", () => {
    it("answers 408 to a body that trickles in, within the request timeout", async () => {
      await Promise.all(
        PARTS.map(async (part) => {
          const started = Date.now();
          const { answer } = await trickle(
            url[part],
            "POST /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
            "{",
          );
          const elapsed = Date.now() - started;
          assert.match(answer, /^HTTP\/1.1 408 /, part);
          const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as unknown;
          assert.deepEqual(body, shaped(part, "the request did not arrive in time", 408));
          assert.ok(elapsed >= 1900 && elapsed < 4500, `${part} cut after ${elapsed} ms`);
        }),
      );
    });

    it("cuts a client that never finishes its headers", async () => {
      const started = Date.now();
      const { answer } = await trickle(url.registry, "GET /_health HTTP/1.1\r\n", "X: y\r\n");
      assert.ok(answer === "" || answer.startsWith("HTTP/1.1 408 "), answer);
      assert.ok(Date.now() - started < 3500, `cut after ${Date.now() - started} ms`);
    });

    it("refuses connections beyond --max-connections", async () => {
      const held: Socket[] = [];
      try {
        // Connections are opened and used one by one until the part closes one. The explorer's own
        // keep-alive reads of the parts (earlier tests load its pages) may hold a few places already,
        // so the cap is reached after at most 40 of ours.
        let beyond: Socket | undefined;
        while (beyond === undefined && held.length <= 40) {
          const socket = await opened(url.api);
          if ((await health(socket)) === "closed") beyond = socket;
          else held.push(socket);
        }
        assert.ok(beyond !== undefined, "no connection was refused within 41 of ours");
        assert.ok(held.length >= 30, `only ${held.length} connections were served before the cap`);
        // Every held connection is still served.
        assert.equal(await health(held.at(-1)!), "served");
      } finally {
        for (const socket of held) socket.destroy();
      }
      // Once they are gone, new clients are served again.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal((await call(url.api, "/_health")).status, 200);
    });
  });

  describe("bodies over the limit", () => {
    it("answer 413 with the error body, never a reset, to clients still sending", async () => {
      // 4 MB sent in one write: enough to outrun the socket buffers on loopback, where 2 MB is not.
      const big = Buffer.alloc(4 * 1024 * 1024, "a");
      for (let i = 0; i < 20; i++) {
        for (const chunked of [false, true]) {
          const answer = await sendBig(`${url.registry}/transfers`, big, chunked);
          assert.equal(answer.status, 413, `attempt ${i} chunked=${chunked}`);
          assert.deepEqual(answer.body, { error: "request body is too large" });
          assert.equal(answer.headers.connection, "close");
        }
      }
    });

    it("answer 413 on a server with the default 64 KB limit too, 20 times in a row", async () => {
      const app = await createHttpServer(plain);
      app.post("/small", async () => ({ ok: true }));
      await app.listen({ host: "127.0.0.1", port: 0 });
      try {
        const { port } = app.server.address() as { port: number };
        const big = Buffer.alloc(4 * 1024 * 1024, "b");
        for (let i = 0; i < 20; i++) {
          const answer = await sendBig(`http://127.0.0.1:${port}/small`, big, i % 2 === 1);
          assert.equal(answer.status, 413, `attempt ${i}`);
          assert.deepEqual(answer.body, { problem: "request body is too large" });
        }
      } finally {
        await app.close();
      }
    });
  });
});

const shape: ErrorShape = {
  badRequest: (message, statusCode) => ({ statusCode, body: { problem: message } }),
  notFound: (method, path) => ({ statusCode: 404, body: { problem: `no route ${method} ${path}` } }),
  forbidden: (message, statusCode) => ({ statusCode, body: { problem: message } }),
  fromError: () => undefined,
  internal: () => ({ statusCode: 500, body: { problem: "internal" } }),
};
const plain = {
  part: "test",
  logger: createLogger("silent"),
  errors: shape,
  api: {
    title: "test",
    description: "a server of these tests",
    tags: [],
    schemas: [{ $id: "TestError", type: "object" }],
    errorSchema: "TestError",
    refusals: {},
  },
};

function hostPort(base: string): { host: string; port: number } {
  const { hostname, port } = new URL(base);
  return { host: hostname, port: Number(port) };
}

function opened(base: string): Promise<Socket> {
  const { host, port } = hostPort(base);
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => resolve(socket));
    socket.on("error", reject);
  });
}

/** A GET /_health on an open connection: answered 200, or the connection closed (bounded by 5 s). */
function health(socket: Socket): Promise<"served" | "closed"> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("neither answered nor closed within 5 s")), 5000);
    const done = (outcome: "served" | "closed") => {
      clearTimeout(timer);
      socket.off("close", closed);
      socket.off("data", data);
      resolve(outcome);
    };
    const closed = () => done("closed");
    const data = (chunk: Buffer) => {
      if (/^HTTP\/1.1 200 /.test(String(chunk))) done("served");
      else done("closed");
    };
    socket.once("close", closed);
    socket.once("data", data);
    socket.write("GET /_health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  });
}

async function rawExchange(base: string, text: string): Promise<string> {
  const socket = await opened(base);
  socket.end(text);
  let answer = "";
  for await (const chunk of socket) answer += String(chunk);
  return answer;
}

/** Sends `head`, then `drip` once every 300 ms until the server answers or closes. */
async function trickle(base: string, head: string, drip: string): Promise<{ answer: string }> {
  const socket = await opened(base);
  let answer = "";
  socket.on("data", (chunk) => (answer += String(chunk)));
  socket.on("error", () => undefined);
  socket.write(head);
  const timer = setInterval(() => socket.writable && socket.write(drip), 300);
  await new Promise<void>((resolve) => {
    socket.on("close", () => resolve());
    setTimeout(resolve, 10_000);
  });
  clearInterval(timer);
  socket.destroy();
  return { answer };
}

/**
 * POSTs `body` in one write as a plain node:http client. Resolves with the answer once the client has
 * also finished sending; rejects if sending ends in a reset or broken pipe, before or after the answer.
 */
function sendBig(target: string, body: Buffer, chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (!chunked) headers["content-length"] = String(body.length);
    let answer: Answer | undefined;
    let sent = false;
    const settle = () => answer && sent && resolve(answer);
    const req = request(target, { method: "POST", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        answer = { status: res.statusCode!, headers: res.headers, body: JSON.parse(text) as unknown };
        settle();
      });
    });
    req.on("error", reject);
    // "close", not "finish": a client request finishes once its body is queued, before a reset can show.
    req.on("close", () => {
      sent = true;
      settle();
    });
    req.end(body);
  });
}
