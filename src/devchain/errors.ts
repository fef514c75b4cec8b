import type { ErrorShape } from "../http/index.js";
import { DEVCHAIN_ERROR_STATUS, DevchainError, type DevchainErrorCode } from "../interfaces/chainErrors.js";

/** The devchain's error body as a JSON schema, for its OpenAPI document. */
export const devchainErrorSchema = {
  $id: "DevchainError",
  description: "A machine code in `error` and a sentence in `message`.",
  type: "object",
  required: ["error", "message"],
  additionalProperties: false,
  properties: {
    error: { type: "string", enum: Object.keys(DEVCHAIN_ERROR_STATUS) },
    message: { type: "string" },
  },
} as const;

function reply(code: DevchainErrorCode, message: string, statusCode: number = DEVCHAIN_ERROR_STATUS[code]) {
  return { statusCode, body: { error: code, message } };
}

/** The devchain's error body: `{"error": "<machine_code>", "message": "<sentence>"}`. */
export const devchainErrors: ErrorShape = {
  badRequest: (message, statusCode) => reply("bad_request", message, statusCode),
  notFound: (method, path) => reply("not_found", `there is no route ${method} ${path}`),
  forbidden: (message, statusCode) => reply(statusCode === 401 ? "unauthorized" : "forbidden", message),
  fromError: (error) => (error instanceof DevchainError ? reply(error.code, error.message) : undefined),
  internal: () => reply("internal_error", "the devchain failed to handle this request"),
};
