/**
 * The hub's error type: a machine-readable code plus the reference hub's sentence, so that clients
 * written against the reference can keep matching on either.
 */

/** Every errCode the hub may answer, the reference's set; the order is the OpenAPI document's. */
export const HUB_ERROR_CODES = [
  "unauthenticated",
  "unauthorized",
  "bad_request",
  "bad_request.parse_failure",
  "bad_request.invalid_param",
  "bad_request.validation_failure",
  "bad_request.duplicate",
  "bad_request.conflict",
  "bad_request.prunable",
  "bad_request.unknown_signer",
  "bad_request.no_storage",
  "bad_request.unknown_fid",
  "not_found",
  "not_implemented",
  "not_implemented.deprecated",
  "unavailable",
  "unavailable.network_failure",
  "unavailable.storage_failure",
  "unknown",
] as const;

export type HubErrorCode = (typeof HUB_ERROR_CODES)[number];

/** gRPC status numbers the reference hub reports in the `code` field of its error JSON. */
export const GrpcStatus = {
  OK: 0,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

// unknown_signer, no_storage and unknown_fid were never added to the reference's INVALID_ARGUMENT
// list, so they fall through to UNKNOWN (2); clients see that number, keep it.
const GRPC_BY_CODE: Readonly<Record<HubErrorCode, number>> = {
  unauthenticated: GrpcStatus.UNAUTHENTICATED,
  unauthorized: GrpcStatus.PERMISSION_DENIED,
  bad_request: GrpcStatus.INVALID_ARGUMENT,
  "bad_request.parse_failure": GrpcStatus.INVALID_ARGUMENT,
  "bad_request.invalid_param": GrpcStatus.INVALID_ARGUMENT,
  "bad_request.validation_failure": GrpcStatus.INVALID_ARGUMENT,
  "bad_request.duplicate": GrpcStatus.INVALID_ARGUMENT,
  "bad_request.conflict": GrpcStatus.INVALID_ARGUMENT,
  "bad_request.prunable": GrpcStatus.INVALID_ARGUMENT,
  "bad_request.unknown_signer": GrpcStatus.UNKNOWN,
  "bad_request.no_storage": GrpcStatus.UNKNOWN,
  "bad_request.unknown_fid": GrpcStatus.UNKNOWN,
  not_found: GrpcStatus.NOT_FOUND,
  not_implemented: GrpcStatus.UNKNOWN,
  "not_implemented.deprecated": GrpcStatus.UNKNOWN,
  unavailable: GrpcStatus.UNAVAILABLE,
  "unavailable.network_failure": GrpcStatus.UNAVAILABLE,
  "unavailable.storage_failure": GrpcStatus.UNAVAILABLE,
  unknown: GrpcStatus.UNKNOWN,
};

export function grpcCodeOf(errCode: HubErrorCode): number {
  return GRPC_BY_CODE[errCode] ?? GrpcStatus.UNKNOWN;
}

export function isHubErrorCode(value: unknown): value is HubErrorCode {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(GRPC_BY_CODE, value);
}

/** The reference hub's error body (docs/reference/hub-http-api.md §7.1), without `message` and `stack`. */
export interface HubErrorJson {
  errCode: HubErrorCode;
  presentable: boolean;
  name: "HubError";
  code: number;
  details: string;
  metadata: { errcode: [HubErrorCode] };
}

export interface HubErrorOptions {
  cause?: unknown;
  presentable?: boolean;
  /**
   * The HTTP status when it is not the one the errCode has: the reference answers 400 to
   * everything, so an errCode alone cannot tell a 415 or a 429 from its siblings. Only the hub's
   * named refusals (src/hub/errors.ts) set it; it is not part of the body.
   */
  httpStatus?: number;
}

export class HubError extends Error {
  override readonly name = "HubError";
  readonly errCode: HubErrorCode;
  readonly presentable: boolean;
  readonly httpStatus: number | undefined;

  constructor(errCode: HubErrorCode, message: string, options?: HubErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.errCode = errCode;
    this.presentable = options?.presentable ?? false;
    this.httpStatus = options?.httpStatus;
  }

  get code(): number {
    return grpcCodeOf(this.errCode);
  }

  toJSON(): HubErrorJson {
    return {
      errCode: this.errCode,
      presentable: this.presentable,
      name: "HubError",
      code: this.code,
      details: this.message,
      metadata: { errcode: [this.errCode] },
    };
  }
}
