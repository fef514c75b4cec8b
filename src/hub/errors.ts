/**
 * The hub's error shape: the reference's HubError body, `{errCode, presentable, name, code,
 * details, metadata: {errcode: [...]}}`, with honest HTTP statuses where the reference answers 400
 * to everything: 400 bad requests (415 for an unreadable content type), 401 (with WWW-Authenticate)
 * unauthenticated, 403 unauthorized, 404 not found, 501 not implemented, 503 unavailable (429 for
 * a caller over a limit), 500 for real faults.
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

/** The HTTP status of each errCode (docs/hub.md, "Errors"); a named refusal below may carry another. */
export const HUB_ERROR_STATUS: Readonly<Record<HubErrorCode, number>> = {
  unauthenticated: 401,
  unauthorized: 403,
  bad_request: 400,
  "bad_request.parse_failure": 400,
  "bad_request.invalid_param": 400,
  "bad_request.validation_failure": 400,
  "bad_request.unknown_signer": 400,
  "bad_request.duplicate": 400,
  "bad_request.conflict": 400,
  "bad_request.prunable": 400,
  "bad_request.no_storage": 400,
  "bad_request.unknown_fid": 400,
  not_found: 404,
  not_implemented: 501,
  "not_implemented.deprecated": 501,
  unavailable: 503,
  "unavailable.network_failure": 503,
  "unavailable.storage_failure": 503,
  unknown: 500,
};

/** A read of something the hub does not hold. */
export function notFound(what: string): HubError {
  return new HubError("not_found", `${what} not found`);
}

/** A body the hub cannot read because of its content type: a parse failure, answered with 415. */
export function unsupportedMediaType(message: string): HubError {
  return new HubError("bad_request.parse_failure", message, { httpStatus: 415 });
}

/** A caller over one of its limits: unavailable, answered with 429. */
export function rateLimited(message: string): HubError {
  return new HubError("unavailable", message, { httpStatus: 429 });
}

function hubErrorReply(error: HubError): ErrorReply {
  const reply: ErrorReply = {
    statusCode: error.httpStatus ?? HUB_ERROR_STATUS[error.errCode],
    body: error.toJSON(),
  };
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
