/**
 * How every part is built: what it opens (its database, worker threads, its HTTP server, background
 * jobs) it registers here as it goes, and it is closed in the reverse order: by the part's close(),
 * or at once when a later step of its start fails, so that a failed start leaves no file open and
 * no timer running.
 */
import type { Logger } from "../http/logger.js";
import { once } from "../once.js";

export class PartScope {
  readonly #closers: (() => unknown)[] = [];

  /** The part's one logger: every line it logs, its HTTP server's included, carries its `part` field. */
  readonly logger: Logger;

  constructor(part: string, logger: Logger) {
    this.logger = logger.child({ part });
  }

  /** Registers `close` to run when the part closes, before what was registered earlier. */
  own<Resource>(resource: Resource, close: (resource: Resource) => unknown): Resource {
    this.#closers.push(() => close(resource));
    return resource;
  }

  /** Runs every close, the last registered first; all run even when one fails, whose error is rethrown. */
  async close(): Promise<void> {
    let failure: { error: unknown } | undefined;
    while (this.#closers.length > 0) {
      try {
        await this.#closers.pop()!();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/**
 * Builds the part named `part` with `build`, which opens its resources through the scope, and returns what it
 * returns with `close()` (closing them in reverse, callable any number of times). When `build`
 * throws, what it had opened is closed before the error propagates.
 */
export async function buildPart<Part extends object>(
  name: { part: string; logger: Logger },
  build: (scope: PartScope) => Promise<Part>,
): Promise<Part & { close(): Promise<void> }> {
  const scope = new PartScope(name.part, name.logger);
  let part: Part;
  try {
    part = await build(scope);
  } catch (error) {
    await scope.close().catch(() => undefined);
    throw error;
  }
  return { ...part, close: once(() => scope.close()) };
}
