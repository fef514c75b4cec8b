/**
 * A one-time step, such as a part's close, that may be called any number of times from any number of
 * places (a signal handler, a test's `after`, a failed start) and runs once: every call shares the
 * first call's promise.
 */
export function once(step: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= step());
}
