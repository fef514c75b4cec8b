/**
 * One reader of the hub event log for every stream at its head (SSE text for GET /v1/events/stream,
 * protobuf bytes for gRPC Subscribe). Each new page of events is read from the database and rendered
 * once, then written to every subscriber; before this,
 * each stream read and rendered every commit itself, and a thousand idle streams made submits 35×
 * slower. A subscriber that starts behind the reader's head reads its own pages until it reaches it
 * (catchUp), then joins. Each subscriber keeps its own cursor and is written only events at or past
 * it, so an event is never sent twice or skipped across the switch: ids grow in commit order, and
 * whatever commits after the shared reader's last page is read by its next one.
 */
export interface Subscriber<Rendered> {
  /** The id of the next event this subscriber needs. */
  cursor: number;
  /** Writes an event; false when the subscriber cannot keep up and has been dropped. */
  write(event: RenderedEvent<Rendered>): boolean;
  /** Tells an idle subscriber's connection that the stream lives; false if it has been dropped. */
  keepAlive(): boolean;
  /** Resolves when its socket can take more: catching up goes at the subscriber's own pace. */
  ready(): Promise<void>;
}

export interface RenderedEvent<Rendered> {
  id: number;
  /** Its HubEventType. */
  type: number;
  rendered: Rendered;
}

/** Reads up to a page of events from `fromId` on, rendered; fewer than a page means none are left. */
export type PageReader<Rendered> = (
  fromId: number,
) => Promise<{ events: RenderedEvent<Rendered>[]; full: boolean }>;

const POLL_MS = 1_000;
const HEARTBEAT_MS = 15_000;

export class EventFanout<Rendered> {
  readonly #members = new Set<Subscriber<Rendered>>();
  readonly #read: PageReader<Rendered>;
  readonly #onError: (error: unknown) => void;
  #head = 0;
  #pumping = false;
  #again = false;
  #timers: NodeJS.Timeout[] = [];

  constructor(read: PageReader<Rendered>, onError: (error: unknown) => void) {
    this.#read = read;
    this.#onError = onError;
  }

  /** Events committed in this process: read them now (other processes' are found by polling). */
  notify(): void {
    if (this.#members.size > 0) void this.#pump();
  }

  /**
   * Brings `subscriber` to the shared reader's head with its own reads, writing what it reads, then
   * makes it a member. Resolves false if it was dropped or `stopped()` became true on the way.
   */
  async catchUp(subscriber: Subscriber<Rendered>, stopped: () => boolean): Promise<boolean> {
    for (;;) {
      if (stopped()) return false;
      if (this.#members.size === 0) this.#head = subscriber.cursor;
      if (subscriber.cursor >= this.#head) {
        this.#add(subscriber);
        return true;
      }
      const head = this.#head;
      const { events, full } = await this.#read(subscriber.cursor);
      if (!deliver(subscriber, events)) return false;
      await subscriber.ready();
      // A short page while the head stood still: every event below the head was committed before this
      // read began, so this subscriber has them all (those pruned meanwhile included).
      if (!full && this.#head === head) subscriber.cursor = Math.max(subscriber.cursor, head);
    }
  }

  remove(subscriber: Subscriber<Rendered>): void {
    if (!this.#members.delete(subscriber) || this.#members.size > 0) return;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
  }

  #add(subscriber: Subscriber<Rendered>): void {
    this.#members.add(subscriber);
    if (this.#timers.length > 0) return;
    this.#timers = [
      setInterval(() => this.notify(), POLL_MS),
      setInterval(() => {
        for (const member of this.#members) if (!member.keepAlive()) this.remove(member);
      }, HEARTBEAT_MS),
    ];
    // Whatever committed while it caught up.
    this.notify();
  }

  /** Reads every page from the head on, once, while anyone listens; a notify during a read reads again. */
  async #pump(): Promise<void> {
    if (this.#pumping) return void (this.#again = true);
    this.#pumping = true;
    try {
      do {
        this.#again = false;
        let full = true;
        while (full && this.#members.size > 0) {
          const page = await this.#read(this.#head);
          full = page.full;
          for (const member of this.#members) if (!deliver(member, page.events)) this.remove(member);
          const last = page.events.at(-1);
          if (last !== undefined) this.#head = Math.max(this.#head, last.id + 1);
        }
      } while (this.#again && this.#members.size > 0);
    } catch (error) {
      this.#onError(error);
    } finally {
      this.#pumping = false;
    }
  }
}

/** Writes the events at or past the subscriber's cursor; false if it was dropped. */
function deliver<Rendered>(
  subscriber: Subscriber<Rendered>,
  events: readonly RenderedEvent<Rendered>[],
): boolean {
  for (const event of events) {
    if (event.id < subscriber.cursor) continue;
    if (!subscriber.write(event)) return false;
    subscriber.cursor = event.id + 1;
  }
  return true;
}
