import type { ErrorReply, ErrorShape } from "../http/index.js";

/**
 * Every refusal of the registry's API, by code. The reference's ten POST /transfers validation codes
 * (uppercase) answer 400 `{"error":"Validation failure","code":…}` (a closed set clients match on);
 * castnet's own codes (lowercase) answer `{"error":"<sentence>"}` with their status, or, from the
 * CCIP-read gateway, `{"message":"<sentence>"}` (src/registry/ccipRoutes.ts). docs/registry.md lists
 * them all.
 */
export const REGISTRY_ERROR_STATUS = {
  UNAUTHORIZED: 400,
  INVALID_FID_OWNER: 400,
  USERNAME_RESERVED: 400,
  INVALID_SIGNATURE: 400,
  INVALID_USERNAME: 400,
  TOO_MANY_NAMES: 400,
  INVALID_TIMESTAMP: 400,
  USERNAME_TAKEN: 400,
  USERNAME_NOT_FOUND: 400,
  THROTTLED: 400,
  bad_request: 400,
  not_found: 404,
  rate_limited: 429,
} as const;

export type RegistryErrorCode = keyof typeof REGISTRY_ERROR_STATUS;

function isValidationCode(code: RegistryErrorCode): boolean {
  return code === code.toUpperCase(); // the reference's spelling; castnet's codes are lowercase
}

/**
 * The registry's one error type. A validation code carries `message` only when the code alone would
 * not tell a person what went wrong (castnet's own rules); other codes always carry their sentence.
 */
export class RegistryError extends Error {
  override name = "RegistryError";
  readonly statusCode: number;

  constructor(
    readonly code: RegistryErrorCode,
    readonly detail?: string,
    /** Seconds, for rate_limited. */
    readonly retryAfter?: number,
  ) {
    super(detail === undefined ? code : `${code}: ${detail}`);
    this.statusCode = REGISTRY_ERROR_STATUS[code];
  }
}

/** The registry's error bodies as a JSON schema, for its OpenAPI document. */
export const registryErrorSchema = {
  $id: "RegistryError",
  description:
    'A sentence in `error`, or `{"error": "Validation failure", "code"}` (with `message` where the code alone does not say what went wrong) for POST /transfers refusals.',
  type: "object",
  required: ["error"],
  additionalProperties: false,
  properties: {
    error: { type: "string" },
    code: {
      type: "string",
      enum: (Object.keys(REGISTRY_ERROR_STATUS) as RegistryErrorCode[]).filter(isValidationCode),
    },
    message: { type: "string" },
  },
} as const;

/** The CCIP-read gateway's error body (src/registry/ccipRoutes.ts). */
export const ccipErrorSchema = {
  $id: "CcipError",
  description: "The CCIP-read gateway library's error body.",
  type: "object",
  required: ["message"],
  additionalProperties: false,
  properties: { message: { type: "string" } },
} as const;

const reply = (statusCode: number, error: string): ErrorReply => ({ statusCode, body: { error } });

/** The registry's error body: `{"error": "<sentence>"}`, or the validation failure with its code. */
export const registryErrors: ErrorShape = {
  badRequest: (message, statusCode) => reply(statusCode, message),
  notFound: (method, path) => reply(404, `There is no route ${method} ${path}`),
  forbidden: (message, statusCode) => reply(statusCode, message),
  fromError(error) {
    if (!(error instanceof RegistryError)) return undefined;
    if (isValidationCode(error.code)) {
      const body = { error: "Validation failure", code: error.code };
      return {
        statusCode: error.statusCode,
        body: error.detail === undefined ? body : { ...body, message: error.detail },
      };
    }
    const shaped = reply(error.statusCode, error.detail ?? error.code);
    if (error.retryAfter !== undefined) shaped.headers = { "retry-after": String(error.retryAfter) };
    return shaped;
  },
  internal: () => reply(500, "Internal server error"),
};
