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
} from "fastify";
import type { ErrorShape } from "./errors.js";
import type { Logger } from "./logger.js";
import { describeValidationFailure, validatorCompiler } from "./validation.js";

export interface HttpServerOptions {
  /** Which part this server is ("hub", "registry", ...), for logs. */
  part: string;
  logger: Logger;
  errors: ErrorShape;
  /** Largest request body in bytes. */
  bodyLimit?: number;
  corsOrigin?: string;
}

const DEFAULT_BODY_LIMIT = 64 * 1024;

function sendShaped(reply: FastifyReply, shaped: ReturnType<ErrorShape["internal"]>) {
  if (shaped.headers) reply.headers(shaped.headers);
  return reply.code(shaped.statusCode).send(shaped.body);
}

/**
 * The Fastify conventions shared by the four parts: request ids, structured logs, CORS with preflight,
 * body limits, keep-alive longer than common load balancers' 60 s, schema validation that coerces
 * query strings but never JSON bodies, errors in the part's own shape (never a 500 for bad input),
 * and a health route.
 */
export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger.child({ part: options.part }) as FastifyBaseLogger,
    // One line per request comes from our onResponse hook, with the route pattern instead of the raw URL.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    keepAliveTimeout: 61_000,
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
  });
  app.setValidatorCompiler(validatorCompiler);
  await app.register(cors, {
    // A plain OPTIONS (no preflight headers) is answered like a preflight, not refused in plain text.
    strictPreflight: false,
    origin: options.corsOrigin ?? "*",
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    exposedHeaders: ["x-request-id", "retry-after"],
  });
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.routeOptions.url ?? request.url,
        status: reply.statusCode,
        ms: reply.elapsedTime,
      },
      "request",
    );
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

  app.get("/_health", async () => ({ status: "ok" }));
  return app as unknown as FastifyInstance;
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
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const reply = errors.badRequest(
    tooLarge ? "the request headers are too large" : "the request is not valid HTTP",
    tooLarge ? 431 : 400,
  );
  const body = JSON.stringify(reply.body);
  socket.end(
    `HTTP/1.1 ${reply.statusCode} ${STATUS_CODES[reply.statusCode] ?? "Bad Request"}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
