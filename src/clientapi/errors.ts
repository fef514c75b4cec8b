import type { ErrorReply, ErrorShape } from "../http/index.js";

/**
 * The client API's one error type. The reference answers `{"errors":[{"message": …}]}`; castnet adds
 * honest statuses: 400 bad input, 401/403 operator auth, 402 a sponsor short of credits, 404 unknown
 * channel/token/action, 409 a conflict with the current state.
 */
export class ClientApiError extends Error {
  override name = "ClientApiError";
  constructor(
    readonly statusCode: 400 | 402 | 404 | 409 | 503,
    message: string,
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
  fromError: (error) =>
    error instanceof ClientApiError ? reply(error.statusCode, error.message) : undefined,
  internal: () => reply(500, "Internal server error"),
};
