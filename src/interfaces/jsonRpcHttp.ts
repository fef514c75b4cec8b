/**
 * One Ethereum JSON-RPC 2.0 request over HTTP, for the calls castnet itself makes of a devchain's
 * methods: `castnet_setBalance` when an account is made (src/stack/account.ts), and the CLI's
 * `castnet chain` commands. A node's error object comes back as a JsonRpcCallError with its code; no
 * answer, or an answer that is not a JSON-RPC response, as a JsonRpcUnavailable.
 */

/** The node answered the request with an error object. */
export class JsonRpcCallError extends Error {
  override name = "JsonRpcCallError";
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** No JSON-RPC answer: nothing listens at the URL (`reachable` false), or something else answered. */
export class JsonRpcUnavailable extends Error {
  override name = "JsonRpcUnavailable";
  constructor(
    readonly url: string,
    readonly reachable: boolean,
    message: string,
  ) {
    super(message);
  }
}

export interface JsonRpcCallOptions {
  /** Sent as a Bearer token: the devchain's operator methods (castnet_*) need it when it has one. */
  adminToken?: string;
  timeoutMs?: number;
}

const TIMEOUT_MS = 30_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `method` with positional `params` at `url`; its result, or one of the errors above. */
export async function jsonRpcCall(
  url: string,
  method: string,
  params: readonly unknown[],
  options: JsonRpcCallOptions = {},
): Promise<unknown> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.adminToken) headers.authorization = `Bearer ${options.adminToken}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
    });
  } catch (error) {
    throw new JsonRpcUnavailable(url, false, `${url} is unreachable: ${(error as Error).message}`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (isObject(body) && body.jsonrpc === "2.0") {
    const error = body.error;
    if (isObject(error) && typeof error.code === "number" && typeof error.message === "string")
      throw new JsonRpcCallError(method, error.code, error.message, error.data);
    if ("result" in body) return body.result;
  }
  throw new JsonRpcUnavailable(
    url,
    true,
    `${url} answered ${method} with status ${response.status} and no JSON-RPC response`,
  );
}
