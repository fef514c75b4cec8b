import type { ErrorShape } from "../http/index.js";
import { CHAIN_ERROR_STATUS, ChainError, type ChainErrorCode } from "../interfaces/chainErrors.js";

export {
  CHAIN_ERROR_STATUS,
  ChainError,
  type ChainErrorCode,
  isChainErrorCode,
} from "../interfaces/chainErrors.js";

/** The devchain's error body as a JSON schema, for its OpenAPI document. */
export const chainErrorSchema = {
  $id: "ChainError",
  description: "A machine code in `error` and a sentence in `message`.",
  type: "object",
  required: ["error", "message"],
  additionalProperties: false,
  properties: {
    error: { type: "string", enum: Object.keys(CHAIN_ERROR_STATUS) },
    message: { type: "string" },
  },
} as const;

function reply(code: ChainErrorCode, message: string, statusCode: number = CHAIN_ERROR_STATUS[code]) {
  return { statusCode, body: { error: code, message } };
}

/** The devchain's error body: `{"error": "<machine_code>", "message": "<sentence>"}`. */
export const chainErrors: ErrorShape = {
  badRequest: (message, statusCode) => reply("bad_request", message, statusCode),
  notFound: (method, path) => reply("not_found", `there is no route ${method} ${path}`),
  forbidden: (message, statusCode) => reply(statusCode === 401 ? "unauthorized" : "forbidden", message),
  fromError: (error) => (error instanceof ChainError ? reply(error.code, error.message) : undefined),
  internal: () => reply("internal_error", "the devchain failed to handle this request"),
};
