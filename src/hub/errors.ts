/**
 * The hub's error shape: the reference's HubError body, `{errCode, presentable, name, code,
 * details, metadata: {errcode: [...]}}`, with honest HTTP statuses where the reference answers 400
 * to everything: 400 bad requests, 401 (with WWW-Authenticate) unauthenticated, 403 unauthorized,
 * 404 not found, 429 rate limits and 503 other unavailability, 500 for real faults.
 */
import type { ErrorReply, ErrorShape } from "../http/index.js";
import { HUB_ERROR_CODES, HubError, type HubErrorCode } from "../protocol/errors.js";

/** The HubError body as a JSON schema, for the hub's OpenAPI document. */
export const hubErrorSchema = {
  $id: "HubError",
  description:
    "The reference hub's HubError body; errCode says what went wrong, details says it to a person.",
  type: "object",
  required: ["errCode", "presentable", "name", "code", "details", "metadata"],
  additionalProperties: false,
  properties: {
    errCode: { type: "string", enum: HUB_ERROR_CODES },
    presentable: { type: "boolean" },
    name: { type: "string", const: "HubError" },
    code: { type: "integer", description: "The gRPC status of errCode." },
    details: { type: "string" },
    metadata: {
      type: "object",
      required: ["errcode"],
      additionalProperties: false,
      properties: { errcode: { type: "array", items: { type: "string", enum: HUB_ERROR_CODES } } },
    },
  },
} as const;

const BASIC_CHALLENGE = 'Basic realm="castnet hub", charset="UTF-8"';

/** A body the hub cannot read because of its content type: a parse failure, answered with 415. */
export class UnsupportedMediaType extends HubError {
  constructor(message: string) {
    super("bad_request.parse_failure", message);
  }
}

/** A caller over one of its limits: unavailable, answered with 429. */
export class TooManyRequests extends HubError {
  constructor(message: string) {
    super("unavailable", message);
  }
}

/** A fid over its merge rate (docs/reference/protocol-rules.md §3 step 10). */
export class RateLimited extends TooManyRequests {
  constructor(fid: number) {
    super(`rate limit exceeded for FID ${fid}`);
  }
}

function statusOf(error: HubError): number {
  if (error instanceof UnsupportedMediaType) return 415;
  if (error instanceof TooManyRequests) return 429;
  const code: HubErrorCode = error.errCode;
  if (code === "not_found") return 404;
  if (code === "unauthenticated") return 401;
  if (code === "unauthorized") return 403;
  if (code === "unavailable" || code.startsWith("unavailable.")) return 503;
  if (code === "not_implemented" || code === "not_implemented.deprecated") return 501;
  if (code === "unknown") return 500;
  return 400;
}

function hubErrorReply(error: HubError): ErrorReply {
  const reply: ErrorReply = { statusCode: statusOf(error), body: error.toJSON() };
  if (error.errCode === "unauthenticated") reply.headers = { "www-authenticate": BASIC_CHALLENGE };
  return reply;
}

/**
 * The errCode of a request refused before any route saw it, by status: schema failures are validation
 * failures, a request at the wrong host or too slow is merely a bad request, and anything the server
 * could not read (body, headers, URL, content type) is a parse failure.
 */
const REFUSAL_CODES: Partial<Record<number, HubErrorCode>> = {
  400: "bad_request.validation_failure",
  408: "bad_request",
  421: "bad_request",
};

export const hubErrors: ErrorShape = {
  badRequest(message, statusCode) {
    return {
      statusCode,
      body: new HubError(REFUSAL_CODES[statusCode] ?? "bad_request.parse_failure", message).toJSON(),
    };
  },
  notFound(method, path) {
    return {
      statusCode: 404,
      body: new HubError("not_found", `route ${method} ${path} not found`).toJSON(),
    };
  },
  forbidden(message, statusCode) {
    const code: HubErrorCode = statusCode === 401 ? "unauthenticated" : "unauthorized";
    return hubErrorReply(new HubError(code, message));
  },
  fromError(error) {
    return error instanceof HubError ? hubErrorReply(error) : undefined;
  },
  internal() {
    return {
      statusCode: 500,
      body: new HubError("unknown", "the hub failed to handle the request").toJSON(),
    };
  },
};
