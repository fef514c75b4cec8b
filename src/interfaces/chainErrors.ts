/**
 * The devchain's refusals, which its in-process service and its HTTP twin (chainHttp.ts) both throw,
 * so that a part using the chain handles them alike wherever the chain runs.
 */
/** Every refusal of the devchain, by code, with its HTTP status (docs/devchain.md, "Errors"). */
export const DEVCHAIN_ERROR_STATUS = {
  bad_request: 400,
  invalid_address: 400,
  invalid_key: 400,
  unsupported_key_type: 400,
  unknown_fid: 404,
  unknown_address: 404,
  unknown_transaction: 404,
  custody_taken: 409,
  key_exists: 409,
  key_removed: 409,
  key_not_active: 409,
  invalid_units: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  internal_error: 500,
  chain_unavailable: 503,
} as const;

export type DevchainErrorCode = keyof typeof DEVCHAIN_ERROR_STATUS;

export function isDevchainErrorCode(value: unknown): value is DevchainErrorCode {
  return typeof value === "string" && Object.hasOwn(DEVCHAIN_ERROR_STATUS, value);
}

/** A refused write or an unknown thing: what the contracts would revert with, as an HTTP status. */
export class DevchainError extends Error {
  override name = "DevchainError";
  readonly statusCode: number;

  constructor(
    readonly code: DevchainErrorCode,
    message: string,
  ) {
    super(message);
    this.statusCode = DEVCHAIN_ERROR_STATUS[code];
  }
}
