import type { FastifyBaseLogger } from "fastify";

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
type Level = (typeof LEVELS)[number];

/**
 * A request's logger, made when the request first logs. Fastify gives every request a pino child
 * logger, whose bindings pino serialises and whose redaction it sets up at once: a few µs per
 * request, spent for nothing by most of them, since a request logs only when it fails or at debug.
 */
class RequestLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: object,
  ) {}

  get #logger(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  #write(level: Level, args: unknown[]): void {
    const logger = this.#logger;
    (logger[level] as (...args: unknown[]) => void).apply(logger, args);
  }

  get level(): string {
    return this.#made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  static {
    // fatal(...), error(...), ... debug(...), trace(...), silent(...): each writes through the child.
    for (const level of LEVELS)
      Object.defineProperty(this.prototype, level, {
        value(this: RequestLogger, ...args: unknown[]) {
          this.#write(level, args);
        },
      });
  }

  child(bindings: Record<string, unknown>, options?: object): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a RequestLogger in place of a pino child made at once. */
export function requestLoggerFactory(
  parent: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: object,
): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
