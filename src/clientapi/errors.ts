import type { ErrorReply, ErrorShape, Logger } from "../http/index.js";

/**
 * Every refusal of the client API, by code. The reference answers `{"errors":[{"message": …}]}` to
 * everything; castnet adds honest statuses (docs/clientapi.md, "Errors").
 */
export const CLIENT_API_ERROR_STATUS = {
  bad_request: 400,
  /** A sign-in channel token that is missing, unknown or spent; a wrong relay key; a signer that does not hold the fid. */
  unauthorized: 401,
  /** A sign-in page's approval sent by a page of another origin. */
  forbidden: 403,
  /** A sponsor short of credits. */
  payment_required: 402,
  /** Unknown channel, token, action or sponsor. */
  not_found: 404,
  /** At odds with the current state (already approved, expired, taken). */
  conflict: 409,
  /** Too many requests; carries Retry-After. */
  rate_limited: 429,
  /** The chain did not answer. */
  unavailable: 503,
} as const;

export type ClientApiErrorCode = keyof typeof CLIENT_API_ERROR_STATUS;

/** The client API's one error type: a code from the table above and a sentence a person reads. */
export class ClientApiError extends Error {
  override name = "ClientApiError";
  readonly statusCode: number;

  constructor(
    readonly code: ClientApiErrorCode,
    message: string,
    /** Seconds, for rate_limited. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.statusCode = CLIENT_API_ERROR_STATUS[code];
  }
}

export const badInput = (message: string) => new ClientApiError("bad_request", message);
export const notFound = (message: string) => new ClientApiError("not_found", message);
export const conflict = (message: string) => new ClientApiError("conflict", message);

export function errorBody(message: string): { errors: { message: string }[] } {
  return { errors: [{ message }] };
}

/** The client API's error body as a JSON schema, for its OpenAPI document. */
export const clientApiErrorSchema = {
  $id: "ClientApiError",
  description: "The reference client API's error body: one sentence a person reads.",
  type: "object",
  required: ["errors"],
  additionalProperties: false,
  properties: {
    errors: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["message"],
        additionalProperties: false,
        properties: { message: { type: "string" } },
      },
    },
  },
} as const;

const reply = (statusCode: number, message: string): ErrorReply => ({ statusCode, body: errorBody(message) });

export const clientApiErrors: ErrorShape = {
  badRequest: (message, statusCode) => reply(statusCode, message),
  notFound: (method, path) => reply(404, `There is no route ${method} ${path}`),
  forbidden: (message, statusCode) => reply(statusCode, message),
  fromError(error) {
    if (!(error instanceof ClientApiError)) return undefined;
    const shaped = reply(error.statusCode, error.message);
    if (error.retryAfter !== undefined) shaped.headers = { "retry-after": String(error.retryAfter) };
    return shaped;
  },
  internal: () => reply(500, "Internal server error"),
};

/**
 * The chain refusing a write (a revert: unknown fid, key already added, …) is a conflict the caller can
 * read; the chain being unreachable is a 503. Every rule that calls the chain answers its failures so.
 */
export function chainFailure(error: unknown, what: string, logger: Logger): ClientApiError {
  if (error instanceof ClientApiError) return error;
  const status = (error as { statusCode?: unknown }).statusCode ?? (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status === "number" && status >= 400 && status < 500)
    return conflict(`the chain refused ${what}: ${message}`);
  logger.error({ err: error }, `chain call failed: ${what}`);
  return new ClientApiError("unavailable", `the chain is unavailable; could not read or write ${what}`);
}
