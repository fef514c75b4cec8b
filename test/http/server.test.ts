import assert from "node:assert/strict";
import { connect } from "node:net";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance, InjectOptions } from "fastify";
import pino from "pino";
import {
  type ApiDescription,
  type ErrorShape,
  createHttpServer,
  createLogger,
  operatorGuard,
} from "../../src/http/index.js";
import { ALLOW_NUL } from "../../src/http/validation.js";

class Teapot extends Error {}

const shape: ErrorShape = {
  badRequest: (message, statusCode) => ({ statusCode, body: { problem: message } }),
  notFound: (method, url) => ({ statusCode: 404, body: { problem: `no route ${method} ${url}` } }),
  forbidden: (message, statusCode) => ({ statusCode, body: { problem: message } }),
  fromError: (error) =>
    error instanceof Teapot ? { statusCode: 418, body: { problem: "teapot" } } : undefined,
  internal: () => ({ statusCode: 500, body: { problem: "internal" } }),
};

const api: ApiDescription = {
  title: "test",
  description: "a server of these tests",
  tags: [],
  schemas: [{ $id: "TestError", type: "object" }],
  errorSchema: "TestError",
  refusals: {},
};

describe("the shared HTTP conventions", () => {
  let app: FastifyInstance;
  let guarded: FastifyInstance;

  before(async () => {
    app = await createHttpServer({
      logger: createLogger("silent"),
      errors: shape,
      api,
      bodyLimit: 1024,
    });
    app.get<{ Querystring: { n: number } }>(
      "/numbers",
      {
        schema: { querystring: { type: "object", required: ["n"], properties: { n: { type: "integer" } } } },
      },
      async (request) => ({ n: request.query.n }),
    );
    app.post<{ Body: { n: number } }>(
      "/numbers",
      {
        schema: {
          body: {
            type: "object",
            additionalProperties: false,
            required: ["n"],
            properties: { n: { type: "integer" } },
          },
        },
      },
      async (request) => ({ n: request.body.n }),
    );
    const text = {
      type: "object",
      properties: { s: { type: "string" }, padded: { type: "string", [ALLOW_NUL]: true } },
    };
    app.get("/text", { schema: { querystring: text } }, async (request) => request.query);
    app.post("/text", { schema: { body: text } }, async (request) => request.body);
    app.get("/params/:p", async (request) => ({ length: (request.params as { p: string }).p.length }));
    app.get("/teapot", async () => {
      throw new Teapot();
    });
    app.get("/bug", async () => {
      throw new Error("secret internals");
    });
    guarded = await createHttpServer({ logger: createLogger("silent"), errors: shape, api });
    guarded.post("/write", { preHandler: operatorGuard(undefined, shape) }, async () => ({ ok: true }));
    guarded.post("/token-write", { preHandler: operatorGuard("s3cret", shape) }, async () => ({ ok: true }));
  });
  after(async () => {
    await app.close();
    await guarded.close();
  });

  it("coerces query strings but never JSON bodies", async () => {
    assert.deepEqual((await app.inject("/numbers?n=12")).json(), { n: 12 });
    const wrongType = await app.inject({ method: "POST", url: "/numbers", payload: { n: "12" } });
    assert.equal(wrongType.statusCode, 400);
    assert.deepEqual(wrongType.json(), { problem: 'field "n" must be integer' });
  });

  it("describes every kind of bad input in the part's own shape", async () => {
    const cases: [InjectOptions | string, number, string][] = [
      ["/numbers?n=twelve", 400, 'query parameter "n" must be integer'],
      ["/numbers", 400, 'query parameter "n" is required'],
      [
        { method: "POST", url: "/numbers", payload: { n: 1, extra: true } },
        400,
        'field "extra" is not allowed',
      ],
      [
        { method: "POST", url: "/numbers", payload: "[1]", headers: { "content-type": "application/json" } },
        400,
        "request body must be object",
      ],
      [
        {
          method: "POST",
          url: "/numbers",
          payload: "{nope",
          headers: { "content-type": "application/json" },
        },
        400,
        "request body is not valid JSON",
      ],
      [
        {
          method: "POST",
          url: "/numbers",
          payload: JSON.stringify({ n: "x".repeat(2000) }),
          headers: { "content-type": "application/json" },
        },
        413,
        "request body is too large",
      ],
      [
        { method: "POST", url: "/numbers", payload: "n=1", headers: { "content-type": "text/csv" } },
        415,
        "unsupported content type: text/csv",
      ],
      ["/params/" + "x".repeat(3000), 414, "a path parameter is too long"],
      ["/params/%E0%A4%A", 400, "the URL is malformed"],
      ["/nowhere", 404, "no route GET /nowhere"],
      ["/numbers?n=0x10", 400, 'query parameter "n" must be integer'],
      ["/numbers?n=1e1", 400, 'query parameter "n" must be integer'],
      ["/numbers?n=%201", 400, 'query parameter "n" must be integer'],
      ["/numbers?n=1&n=2", 400, 'query parameter "n" must be given once'],
      [{ method: "POST", url: "/numbers", payload: { n: 1.5 } }, 400, 'field "n" must be integer'],
      ["/text?s=a%00b", 400, 'query parameter "s" must not contain the NUL character (U+0000)'],
      [
        { method: "POST", url: "/text", payload: { s: "a\u0000" } },
        400,
        'field "s" must not contain the NUL',
      ],
      ["/teapot", 418, "teapot"],
    ];
    for (const [request, status, problem] of cases) {
      const response = await app.inject(request);
      assert.equal(response.statusCode, status, JSON.stringify(request).slice(0, 80));
      const body = response.json() as { problem: string };
      assert.ok(body.problem.startsWith(problem), `${body.problem} starts with ${problem}`);
    }
  });

  it("keeps a NUL where a route allows it", async () => {
    assert.deepEqual((await app.inject("/text?padded=alice%00%00")).json(), { padded: "alice\u0000\u0000" });
  });

  it("answers requests that are not HTTP, or whose headers are too large, in the part's shape", async () => {
    await app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = app.server.address() as { port: number };
    const raw = async (request: string) => {
      const socket = connect(port, "127.0.0.1");
      socket.end(request);
      let answer = "";
      for await (const chunk of socket) answer += String(chunk);
      return answer;
    };
    const oversize = await raw(`GET /_health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    assert.match(oversize, /^HTTP\/1.1 431 /);
    assert.ok(oversize.endsWith('{"problem":"the request headers are too large"}'));
    const garbage = await raw("FOO /_health HTTP/1.1\r\nContent-Length: -1\r\n\r\n");
    assert.match(garbage, /^HTTP\/1.1 400 /);
    assert.ok(garbage.endsWith('{"problem":"the request is not valid HTTP"}'));
    const plainOptions = await app.inject({ method: "OPTIONS", url: "/_health" });
    assert.equal(plainOptions.statusCode, 204);
  });

  it("answers a real fault with the part's 500 and no internals", async () => {
    const response = await app.inject("/bug");
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { problem: "internal" });
  });

  it("logs a real fault once with the request's id, and a line per request only at debug", async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
        done();
      },
    });
    const serve = async (level: "info" | "debug") => {
      const logger = pino({ level }, sink).child({ part: level });
      const app = await createHttpServer({ logger, errors: shape, api });
      app.get("/bug", async () => {
        throw new Error("secret internals");
      });
      app.get("/fine", async () => ({ ok: true }));
      return app;
    };
    const seen = () =>
      lines.splice(0).map(({ level, part, reqId, msg, err, url, status }) => ({
        level,
        part,
        reqId,
        msg,
        ...(err === undefined ? {} : { error: (err as { message?: string }).message }),
        ...(url === undefined ? {} : { url, status }),
      }));
    for (const level of ["info", "debug"] as const) {
      const app = await serve(level);
      try {
        const fine = await app.inject("/fine");
        const fault = await app.inject("/bug");
        assert.equal(fine.statusCode, 200);
        assert.equal(fault.statusCode, 500);
        const error = {
          level: 50,
          part: level,
          reqId: fault.headers["x-request-id"],
          msg: "unhandled error",
          error: "secret internals",
        };
        const request = (reqId: unknown, url: string, status: number) => ({
          level: 20,
          part: level,
          reqId,
          msg: "request",
          url,
          status,
        });
        assert.deepEqual(
          seen(),
          level === "info"
            ? [error]
            : [
                request(fine.headers["x-request-id"], "/fine", 200),
                error,
                request(fault.headers["x-request-id"], "/bug", 500),
              ],
        );
      } finally {
        await app.close();
      }
    }
  });

  it("tags every response with a request id", async () => {
    const response = await app.inject({ url: "/numbers?n=1", headers: { origin: "http://app.example" } });
    assert.match(String(response.headers["x-request-id"]), /^[0-9a-f-]{36}$/);
  });

  it("allows cross-origin use of the part's routes", async () => {
    const response = await app.inject({ url: "/numbers?n=1", headers: { origin: "http://app.example" } });
    assert.equal(response.headers["access-control-allow-origin"], "*");
  });

  it("answers a CORS preflight", async () => {
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/numbers",
      headers: { origin: "http://app.example", "access-control-request-method": "POST" },
    });
    assert.equal(preflight.statusCode, 204);
    assert.match(String(preflight.headers["access-control-allow-methods"]), /POST/);
  });

  it("answers /_health", async () => {
    assert.deepEqual((await app.inject("/_health")).json(), { status: "ok" });
  });

  it("keeps idle connections open longer than a 60-second proxy does", () => {
    assert.equal(app.server.keepAliveTimeout, 61_000);
  });

  it("accepts operator writes from loopback only when no admin token is set", async () => {
    assert.equal(
      (await guarded.inject({ method: "POST", url: "/write", remoteAddress: "127.0.0.1" })).statusCode,
      200,
    );
    assert.equal(
      (await guarded.inject({ method: "POST", url: "/write", remoteAddress: "::1" })).statusCode,
      200,
    );
    const remote = await guarded.inject({ method: "POST", url: "/write", remoteAddress: "203.0.113.9" });
    assert.equal(remote.statusCode, 403);
    assert.match((remote.json() as { problem: string }).problem, /loopback addresses only/);
  });

  it("requires the admin token as a Bearer token from anywhere when one is set", async () => {
    const post = (authorization?: string, remoteAddress = "203.0.113.9") =>
      guarded.inject({
        method: "POST",
        url: "/token-write",
        remoteAddress,
        headers: authorization ? { authorization } : {},
      });
    assert.equal((await post("Bearer s3cret")).statusCode, 200);
    for (const wrong of [undefined, "Bearer s3cre", "Bearer s3cret2", "Basic s3cret", "s3cret"]) {
      const response = await post(wrong, "127.0.0.1");
      assert.equal(response.statusCode, 401, String(wrong));
      assert.equal(response.headers["www-authenticate"], 'Bearer realm="castnet"');
    }
  });
});
