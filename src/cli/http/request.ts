/**
 * One HTTP call to a part, as a third-party client makes it: a part that cannot be reached, or that
 * refuses, becomes one sentence for the terminal (CliError), in the words of the part's own error body.
 * The part modules beside this one call through the SDK (castnet/client) with `throughSdk`; `request`
 * is for a one-off call to any path.
 */
import { CastnetResponseError, type ClientOptions } from "../../sdk/index.js";

export type PartLabel = "hub" | "registry" | "client API" | "devchain";

/** A runtime failure the CLI prints as one line and exits 1 for. */
export class CliError extends Error {
  override name = "CliError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 60_000;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** JSON-encoded unless it is bytes, which go as application/octet-stream. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer undefined for a 404 instead of failing. */
  missingIsUndefined?: boolean;
}

/** The sentence in any part's error body: hub `details`, client API `errors[0].message`, registry and devchain `error`/`message`/`code`. */
function messageOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const b = body as {
    details?: unknown;
    errors?: { message?: unknown }[];
    error?: unknown;
    message?: unknown;
    code?: unknown;
  };
  if (typeof b.details === "string") return b.details;
  if (typeof b.errors?.[0]?.message === "string") return b.errors[0].message;
  if (typeof b.message === "string") return b.message;
  if (typeof b.error === "string") return typeof b.code === "string" ? `${b.error}: ${b.code}` : b.error;
  return undefined;
}

export function unreachable(part: PartLabel, base: string): CliError {
  return new CliError(`cannot reach the ${part} at ${base}: is castnet running?`);
}

/** SDK client options for the CLI: every call gives up after the same time as `request`'s. */
export function sdkOptions(options: ClientOptions = {}): ClientOptions {
  return { ...options, fetch: (input) => fetch(input, { signal: AbortSignal.timeout(TIMEOUT_MS) }) };
}

/** An SDK call whose refusal (the API's typed error) or unreachable part becomes a CliError. */
export async function throughSdk<T>(part: PartLabel, base: string, call: () => Promise<T>): Promise<T>;
export async function throughSdk<T>(
  part: PartLabel,
  base: string,
  call: () => Promise<T>,
  missingIsUndefined: true,
): Promise<T | undefined>;
export async function throughSdk<T>(
  part: PartLabel,
  base: string,
  call: () => Promise<T>,
  missingIsUndefined = false,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof CastnetResponseError)) throw unreachable(part, base);
    if (error.status === 404 && missingIsUndefined) return undefined;
    throw new CliError(`the ${part} refused: ${error.message}`, error.status);
  }
}

export async function request<T>(
  part: PartLabel,
  base: string,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  let body: RequestInit["body"];
  if (options.body instanceof Uint8Array) {
    headers["content-type"] = "application/octet-stream";
    body = options.body;
  } else if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(base + path, {
      method: options.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw unreachable(part, base);
  }
  const parsed: unknown = await response.json().catch(() => undefined);
  if (response.ok) return parsed as T;
  if (response.status === 404 && options.missingIsUndefined) return undefined as T;
  const said = messageOf(parsed) ?? `status ${response.status}`;
  throw new CliError(`the ${part} refused: ${said}`, response.status);
}
