import type { ErrorReply, ErrorShape } from "../http/index.js";

/**
 * The client API's one error type. The reference answers `{"errors":[{"message": …}]}`; castnet adds
 * honest statuses: 400 bad input, 401/403 operator auth, 402 a sponsor short of credits, 404 unknown
 * channel/token/action, 409 a conflict with the current state, 429 (with Retry-After) too many requests.
 */
export class ClientApiError extends Error {
  override name = "ClientApiError";
  constructor(
    readonly statusCode: 400 | 402 | 404 | 409 | 429 | 503,
    message: string,
    /** Seconds, for a 429. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const badInput = (message: string) => new ClientApiError(400, message);
export const notFound = (message: string) => new ClientApiError(404, message);
export const conflict = (message: string) => new ClientApiError(409, message);

export function errorBody(message: string): { errors: { message: string }[] } {
  return { errors: [{ message }] };
}

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
