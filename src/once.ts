/**
 * A one-time step, such as a part's close or a module loaded on first use, that may be called any
 * number of times from any number of places (a signal handler, a test's `after`, a failed start)
 * and runs once: every call shares the first call's promise.
 */
export function once<T>(step: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => (running ??= step());
}
