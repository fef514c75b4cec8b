import type { ErrorReply, ErrorShape } from "../http/index.js";

/** The reference's closed set of POST /transfers validation codes. */
export type ValidationCode =
  | "UNAUTHORIZED"
  | "INVALID_FID_OWNER"
  | "USERNAME_RESERVED"
  | "INVALID_SIGNATURE"
  | "INVALID_USERNAME"
  | "TOO_MANY_NAMES"
  | "INVALID_TIMESTAMP"
  | "USERNAME_TAKEN"
  | "USERNAME_NOT_FOUND"
  | "THROTTLED";

/**
 * A POST /transfers refused by the validation pipeline: 400 `{"error":"Validation failure","code":…}`,
 * plus `message` when the code alone would not tell a person what went wrong (castnet's own rules).
 */
export class ValidationFailure extends Error {
  override name = "ValidationFailure";
  constructor(
    readonly code: ValidationCode,
    readonly detail?: string,
  ) {
    super(`Validation failure: ${code}${detail === undefined ? "" : `: ${detail}`}`);
  }
}

/** Anything else the registry refuses: 400 bad input, 404 nothing to show, 429 rate limited. */
export class RegistryError extends Error {
  override name = "RegistryError";
  constructor(
    readonly statusCode: 400 | 404 | 429,
    message: string,
    /** Seconds, for 429. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

const reply = (statusCode: number, error: string): ErrorReply => ({ statusCode, body: { error } });

/** The registry's error body: `{"error": "<sentence>"}`, plus `code` for validation failures. */
export const registryErrors: ErrorShape = {
  badRequest: (message, statusCode) => reply(statusCode, message),
  notFound: (method, path) => reply(404, `There is no route ${method} ${path}`),
  forbidden: (message, statusCode) => reply(statusCode, message),
  fromError(error) {
    if (error instanceof ValidationFailure) {
      const body = { error: "Validation failure", code: error.code };
      return {
        statusCode: 400,
        body: error.detail === undefined ? body : { ...body, message: error.detail },
      };
    }
    if (!(error instanceof RegistryError)) return undefined;
    const shaped = reply(error.statusCode, error.message);
    if (error.retryAfter !== undefined) shaped.headers = { "retry-after": String(error.retryAfter) };
    return shaped;
  },
  internal: () => reply(500, "Internal server error"),
};

/** The CCIP-read gateway keeps its library's error body: `{"message": "<sentence>"}`. */
export class CcipError extends Error {
  override name = "CcipError";
  constructor(
    readonly statusCode: 400 | 404 | 429,
    message: string,
    /** Seconds, for 429. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}
