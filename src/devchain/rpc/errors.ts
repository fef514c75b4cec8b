/**
 * JSON-RPC error objects as Ethereum nodes send them. Clients act on the code (viem falls back from
 * an unknown method, decodes a revert's data, retries a limit) and often on geth's wording too
 * (docs/reference/contracts.md §11.1), so both follow geth where geth has a form.
 */

/**
 * Every code the devchain answers with. The -32700…-32603 codes are JSON-RPC 2.0's own; -32000 and
 * -32005 come from EIP-1474's server-error range; 3 is geth's code for a revert.
 */
export const RPC_ERROR_CODES = {
  /** The body is not JSON. Answered with `id: null`. */
  parseError: -32700,
  /** Not a request object: wrong `jsonrpc`, no method name, a bad id, an empty or oversize batch. */
  invalidRequest: -32600,
  /** No such method; the message names it. viem falls back from `eth_fillTransaction` on this code. */
  methodNotFound: -32601,
  /** The method exists but its parameters are wrong; the message names the parameter. */
  invalidParams: -32602,
  /** A fault of the server's own; the message says nothing more (the log does). Retried by viem. */
  internalError: -32603,
  /** The call reverted; `data` is the revert's bytes (a custom error or `Error(string)`), which viem decodes. */
  executionReverted: 3,
  /** geth's family of refusals worded for clients that match the text: "nonce too low", "filter not found", … */
  serverError: -32000,
  /** A request over a limit the node sets (a block range, a result count). Retried by viem. */
  limitExceeded: -32005,
} as const;

/** The `error` member of a JSON-RPC response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A refusal a method (or the transport) answers with; anything else thrown is an internal error. */
export class RpcError extends Error {
  override readonly name = "RpcError";

  constructor(
    readonly code: number,
    message: string,
    /** Any JSON value; absent from the answer when undefined. */
    readonly data?: unknown,
  ) {
    super(message);
  }

  toErrorObject(): RpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static parseError(detail: string): RpcError {
    return new RpcError(RPC_ERROR_CODES.parseError, `parse error: ${detail}`);
  }

  static invalidRequest(detail: string): RpcError {
    return new RpcError(RPC_ERROR_CODES.invalidRequest, `invalid request: ${detail}`);
  }

  /** geth's wording, which viem also matches when the code is not -32601. */
  static methodNotFound(method: string): RpcError {
    return new RpcError(
      RPC_ERROR_CODES.methodNotFound,
      `the method ${method} does not exist/is not available`,
    );
  }

  /** `detail` is a sentence naming the parameter and what was expected. */
  static invalidParams(detail: string): RpcError {
    return new RpcError(RPC_ERROR_CODES.invalidParams, `invalid params: ${detail}`);
  }

  static internalError(): RpcError {
    return new RpcError(
      RPC_ERROR_CODES.internalError,
      "internal error: the server failed to handle this request",
    );
  }

  /**
   * A revert with its bytes as `data`. geth adds the reason of an `Error(string)` revert to the
   * message ("execution reverted: <reason>"); custom errors have none.
   */
  static executionReverted(data: `0x${string}`, reason?: string): RpcError {
    const message = reason === undefined ? "execution reverted" : `execution reverted: ${reason}`;
    return new RpcError(RPC_ERROR_CODES.executionReverted, message, data);
  }

  /** `message` in geth's words where clients match them: "nonce too low", "insufficient funds for gas * price + value", … */
  static serverError(message: string, data?: unknown): RpcError {
    return new RpcError(RPC_ERROR_CODES.serverError, message, data);
  }

  static limitExceeded(message: string): RpcError {
    return new RpcError(RPC_ERROR_CODES.limitExceeded, message);
  }
}
