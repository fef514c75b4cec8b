/**
 * Each API answers errors in the shape its reference uses. An ErrorShape turns the three kinds of
 * failure the HTTP layer sees by itself (bad input, unknown route, operator auth) and the typed
 * errors its service throws into that shape; anything it does not recognise is a real fault (500).
 */
export interface ErrorReply {
  statusCode: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ErrorShape {
  /** Input that failed schema validation or could not be parsed (malformed JSON, bad content type, oversize). */
  badRequest(message: string, statusCode: number): ErrorReply;
  /** `path` is the request target without its query string. */
  notFound(method: string, path: string): ErrorReply;
  /** An operator write without the admin token (or, with none configured, from a non-loopback address). */
  forbidden(message: string, statusCode: 401 | 403): ErrorReply;
  /** The API's own typed errors; undefined for anything else. */
  fromError(error: unknown): ErrorReply | undefined;
  internal(): ErrorReply;
}
