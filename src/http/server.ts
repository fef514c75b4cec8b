import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import cors from "@fastify/cors";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifySchema,
  type onRouteHookHandler,
} from "fastify";
import { Registry } from "prom-client";
import { buildSerializer } from "./compileOnFirstUse.js";
import type { ErrorShape } from "./errors.js";
import { hostGuard } from "./hosts.js";
import { lingerIfBodyUnread } from "./linger.js";
import type { Logger } from "./logger.js";
import { requestMetrics, serveMetrics } from "./metrics.js";
import { registerOpenApi, type ApiDescription } from "./openapi.js";
import { isOperatorGuard, normalOrigin, operatorGuard } from "./operator.js";
import { type ReadinessCheck, serveReadiness } from "./readiness.js";
import { requestLoggerFactory } from "./requestLogger.js";
import { describeValidationFailure, validatorCompiler } from "./validation.js";

/** One route a part serves: its method, its Fastify pattern (prefix included) and its schemas. */
export interface RouteEntry {
  method: string;
  url: string;
  schema?: FastifySchema;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The part's own routes, without the HEAD and OPTIONS routes Fastify and CORS add for them. */
    routeInventory: readonly RouteEntry[];
  }
  interface FastifyContextConfig {
    /** false: @fastify/cors leaves the route alone (operator preflights answer by themselves). */
    cors?: boolean;
  }
}

/** What an operator configures about every part's HTTP server (`castnet start` flags). */
export interface HttpOptions {
  /** Host names the part answers to besides IP literals and (*.)localhost; "*" accepts any. Default none. */
  allowedHosts?: readonly string[];
  /** Origins (scheme://host[:port]) besides a request's own whose pages may call operator routes. Default none. */
  trustedOrigins?: readonly string[];
  /** Time to receive a whole request, headers and body; default 30 s. */
  requestTimeoutMs?: number;
  /** Time to receive a request's headers; default 10 s. */
  headersTimeoutMs?: number;
  /** A connection with no traffic either way for this long is closed; default 120 s. */
  idleTimeoutMs?: number;
  /** Open connections the part accepts; beyond them new connections are closed at once. Default 4,096. */
  maxConnections?: number;
}

export interface HttpServerOptions extends HttpOptions {
  /** The part's logger (PartScope.logger), whose `part` field its request logs carry. */
  logger: Logger;
  errors: ErrorShape;
  /** The part's OpenAPI document: title, groups and shared schemas (src/http/openapi.ts). */
  api: ApiDescription;
  /** Largest request body in bytes. */
  bodyLimit?: number;
  /** Guards the operator read GET /metrics; without one it answers loopback callers only. */
  adminToken?: string;
  /** The part's own metrics, served with the request and process metrics; default none. */
  metrics?: Registry;
  /** What GET /_ready checks, by name; default nothing (always ready). */
  ready?: Readonly<Record<string, ReadinessCheck>>;
}

const DEFAULT_BODY_LIMIT = 64 * 1024;
const DEFAULTS = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 120_000,
  maxConnections: 4_096,
} as const;

/** The time and connection limits of a part's listeners: its HTTP server's, and the hub's gRPC port's. */
export type ConnectionLimits = Required<
  Pick<HttpOptions, "requestTimeoutMs" | "headersTimeoutMs" | "idleTimeoutMs" | "maxConnections">
>;

/** The limits an operator configured, the defaults for the others. */
export function connectionLimits(options: HttpOptions = {}): ConnectionLimits {
  return {
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    maxConnections: options.maxConnections ?? DEFAULTS.maxConnections,
  };
}

/** How often Node looks for requests over their time limits: the timeouts are this late at most. */
const TIMEOUT_CHECK_MS = 1_000;

function sendShaped(reply: FastifyReply, shaped: ReturnType<ErrorShape["internal"]>) {
  if (shaped.headers) reply.headers(shaped.headers);
  return reply.code(shaped.statusCode).send(shaped.body);
}

const NO_FRAMING = { "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'" };

/**
 * The Fastify conventions shared by the four parts: request ids, structured logs, the Host rule
 * (hosts.ts), CORS with preflight for public routes and none for operator routes (operator.ts),
 * body limits, time limits on receiving requests, a cap on connections, keep-alive longer than
 * common load balancers' 60 s, schema validation that coerces query strings but never JSON bodies
 * (schemas compiled at a route's first request, compileOnFirstUse.ts), a logger per request made
 * only when the request logs (requestLogger.ts), errors in the part's own shape (never a 500 for
 * bad input), a health route, a readiness route (readiness.ts), Prometheus metrics with every
 * request timed (metrics.ts), and the part's OpenAPI document with its docs page (openapi.ts).
 */
export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const limits = connectionLimits(options);
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    // One line per request comes from our onResponse hook, with the route pattern instead of the raw URL.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    keepAliveTimeout: 61_000,
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    http: {
      // Node refuses a headers timeout longer than the request timeout it is part of.
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    },
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    // Long path parameters (hex calldata, keys) are data: route schemas judge them.
    routerOptions: { maxParamLength: 2048 },
    // Malformed URLs and over-long parameters are refused by the router itself: same shape as any bad input.
    clientErrorHandler: (error, socket) => answerClientError(error, socket, options.errors),
    frameworkErrors: (error, _request, reply) => {
      const status = error.code === "FST_ERR_MAX_PARAM_LENGTH" ? 414 : 400;
      const text = status === 414 ? "a path parameter is too long" : "the URL is malformed";
      void sendShaped(reply, options.errors.badRequest(text, status));
    },
    forceCloseConnections: "idle",
    schemaController: { compilersFactory: { buildSerializer } },
  });
  app.server.maxConnections = limits.maxConnections;
  app.setValidatorCompiler(validatorCompiler);
  const checkHost = hostGuard(options.allowedHosts ?? [], options.errors);
  if (checkHost) app.addHook("onRequest", checkHost);
  app.decorate("trustedOrigins", new Set((options.trustedOrigins ?? []).map(trustedOrigin)));
  app.decorate("routeInventory", routeInventory(app));
  app.addHook("onRoute", operatorPreflights());
  await app.register(cors, {
    // A plain OPTIONS (no preflight headers) is answered like a preflight, not refused in plain text.
    strictPreflight: false,
    origin: "*",
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    exposedHeaders: ["x-request-id", "retry-after"],
  });
  // A callback, not async, so that an answer costs no promise; but the answer to a refused request
  // whose socket is set to linger is written a turn later, so that a broken body that follows gets
  // no second answer on that socket.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    // No answer may be framed: a page that frames Swagger UI (or any page of a part) could make the
    // user click "Execute" from the part's own origin. Pages with a policy of their own set it in
    // their plugin's onSend, which runs after this one, and include frame-ancestors 'none'.
    reply.headers(NO_FRAMING);
    if (lingerIfBodyUnread(request.raw, reply.raw)) queueMicrotask(() => done(null, payload));
    else done(null, payload);
  });
  const metrics = options.metrics ?? new Registry();
  const observe = requestMetrics(metrics);
  const logRequests = options.logger.isLevelEnabled("debug");
  // A callback, not async: an async hook costs a promise per request.
  app.addHook("onResponse", (request, reply, done) => {
    observe(request, reply);
    // At debug: a line per request costs about as much CPU as a cheap read route itself.
    if (logRequests)
      request.log.debug(
        {
          method: request.method,
          url: request.routeOptions.url ?? request.url,
          status: reply.statusCode,
          ms: reply.elapsedTime,
        },
        "request",
      );
    done();
  });

  app.setNotFoundHandler((request, reply) =>
    sendShaped(reply, options.errors.notFound(request.method, request.url.split("?")[0]!)),
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const message = describeValidationFailure(error.validationContext ?? "request", error.validation);
      return sendShaped(reply, options.errors.badRequest(message, 400));
    }
    const typed = options.errors.fromError(error);
    if (typed) return sendShaped(reply, typed);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: malformed JSON, unsupported content type, body too large, ...
      return sendShaped(
        reply,
        options.errors.badRequest(clientMessage(error, request.headers["content-type"]), status),
      );
    }
    request.log.error({ err: error }, "unhandled error");
    return sendShaped(reply, options.errors.internal());
  });

  await registerOpenApi(app, options.api);
  app.get(
    "/_health",
    {
      schema: {
        summary: "Liveness",
        description: "Answers as long as the part serves HTTP; says nothing of its database or followers.",
        tags: ["Service"],
        response: {
          200: {
            type: "object",
            required: ["status"],
            properties: { status: { type: "string", const: "ok" } },
          },
        },
      },
    },
    async () => ({ status: "ok" }),
  );
  serveReadiness(app, options.ready ?? {});
  serveMetrics(app, metrics, operatorGuard(options.adminToken, options.errors));
  return app as unknown as FastifyInstance;
}

function trustedOrigin(origin: string): string {
  const normal = normalOrigin(origin);
  if (normal === undefined)
    throw new RangeError(`trusted origin ${origin} is not an origin like https://example.com`);
  return normal;
}

/** Records every route as it is registered, so that a check can compare it with a list kept by hand. */
function routeInventory(app: FastifyInstance): readonly RouteEntry[] {
  const entries: RouteEntry[] = [];
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat())
      if (method !== "HEAD" && method !== "OPTIONS")
        entries.push({ method, url: route.url, schema: route.schema });
  });
  return entries;
}

/**
 * Every URL with an operator route also gets an OPTIONS route behind the same guard, so that a CORS
 * preflight from another origin is refused there instead of answered by the CORS plugin. The check
 * waits until the route's plugin has run its own onRoute hooks, which may add the guard.
 */
function operatorPreflights(): onRouteHookHandler {
  const covered = new Set<string>();
  return function onRoute(this: FastifyInstance, route) {
    if (route.method === "OPTIONS") return;
    this.after((error) => {
      const guard = [route.onRequest ?? []].flat().find(isOperatorGuard);
      if (error || guard === undefined || covered.has(route.url)) return;
      covered.add(route.url);
      this.route({
        method: "OPTIONS",
        url: route.url.slice(route.prefix.length),
        config: { cors: false },
        schema: {
          summary: "CORS preflight of an operator route",
          description:
            "Refused (403) to pages of other origins, so that no other site's page can call the route.",
          tags: route.schema?.tags,
          response: { 204: { description: "The caller may send the request.", type: "null" } },
        },
        onRequest: guard,
        handler: async (_request, reply) => reply.code(204).send(),
      });
    });
  };
}

function clientMessage(error: FastifyError, contentType: string | undefined): string {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return "request body is too large";
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return `unsupported content type: ${contentType ?? "none"}`;
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return "request body is empty but the content type is application/json";
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return "request body is not valid JSON";
    default:
      if (error instanceof SyntaxError) return `request body is not valid JSON: ${error.message}`;
      return error.message;
  }
}

/**
 * Requests so broken that no route sees them (oversize headers, bad framing, not HTTP at all) still
 * get an answer in the part's error shape, on a connection that is then closed.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket, errors: ErrorShape): void {
  if (!socket.writable) return void socket.destroy(error);
  const reply =
    error.code === "HPE_HEADER_OVERFLOW"
      ? errors.badRequest("the request headers are too large", 431)
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? errors.badRequest("the request did not arrive in time", 408)
        : errors.badRequest("the request is not valid HTTP", 400);
  const body = JSON.stringify(reply.body);
  socket.end(
    `HTTP/1.1 ${reply.statusCode} ${STATUS_CODES[reply.statusCode] ?? "Bad Request"}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
