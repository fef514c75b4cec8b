import { type ChannelJson, renderChannel } from "./render.js";
import * as channelStore from "./channelStore.js";
import type { ClientApiDb } from "./tables.js";

const MAX_CACHED = 10_000;

/**
 * Rendered channels kept in memory for the reads that show many channels: all-channels as objects,
 * and a user's followed channels as JSON text, rendered once per channel rather than once per page.
 * A read of the channels version per use (a point read, or the caller's own) tells whether any
 * channel row changed since (in any process sharing the database); if so the cache starts over, so
 * answers are never staler than that read.
 */
export class ChannelCache {
  private version = -1;
  private readonly channelTexts = new Map<string, string>();
  private everyChannel: ChannelJson[] | undefined;

  constructor(private readonly db: ClientApiDb) {}

  /** Every channel, in the store's order. */
  async all(): Promise<ChannelJson[]> {
    await this.refresh();
    this.everyChannel ??= (await channelStore.listChannels(this.db)).map(renderChannel);
    return this.everyChannel;
  }

  /**
   * The JSON text of the channels `ids` name (what their response schema would write), no older than
   * `version`: a channels version the caller read no earlier than it learnt the ids (in the same
   * statement, say), which saves the point read.
   */
  async texts(ids: string[], version: number): Promise<Map<string, string>> {
    this.startOver(version);
    const missing = new Set<string>();
    for (const id of ids) if (!this.channelTexts.has(id)) missing.add(id);
    if (missing.size > 0) {
      for (const row of await channelStore.channelsByIds(this.db, [...missing]))
        this.channelTexts.set(row.id, JSON.stringify(renderChannel(row)));
    }
    return this.channelTexts;
  }

  private async refresh(): Promise<void> {
    this.startOver(await channelStore.channelsVersion(this.db));
  }

  private startOver(version: number): void {
    if (version !== this.version || this.channelTexts.size > MAX_CACHED) {
      this.channelTexts.clear();
      this.everyChannel = undefined;
      this.version = version;
    }
  }
}
