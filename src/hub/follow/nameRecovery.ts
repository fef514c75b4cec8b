/**
 * How often the hub asks the registry for a name it holds no proof of (a USERNAME arrived before the
 * registry's transfer did): each lookup is a registry round trip, a signature recovery and a write,
 * so lookups share a budget per second, and a name looked up lately is not looked up again for a
 * while (what the registry had then is merged; the follower brings anything newer).
 */

/** Name lookups per second, for the whole hub process. */
export const NAME_RECOVERIES_PER_SECOND = 20;
/** How long a looked-up name waits before it may be looked up again. */
const LOOKUP_AGAIN_MS = 10_000;
/** Names remembered at most; the oldest are forgotten first. */
const MAX_REMEMBERED = 10_000;

export class NameRecoveries {
  #second = -1;
  #spent = 0;
  /** Name → when it may be looked up again, oldest first. */
  readonly #recent = new Map<string, number>();

  /** Whether `name` may be looked up now; counts the lookup when it may. */
  take(name: string, nowMs: number): boolean {
    const again = this.#recent.get(name);
    if (again !== undefined && again > nowMs) return false;
    const second = Math.floor(nowMs / 1000);
    if (second !== this.#second) {
      this.#second = second;
      this.#spent = 0;
    }
    if (this.#spent >= NAME_RECOVERIES_PER_SECOND) return false;
    this.#spent++;
    this.#recent.delete(name);
    this.#recent.set(name, nowMs + LOOKUP_AGAIN_MS);
    if (this.#recent.size > MAX_REMEMBERED) this.#recent.delete(this.#recent.keys().next().value!);
    return true;
  }
}
